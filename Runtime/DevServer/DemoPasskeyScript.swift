/// The demo app's one script, on its signed-in page, allowed by its SHA-256 in the page's
/// policy (with `connect-src 'self'`): "Add a passkey" after any sign-in. It asks the demo app's
/// own routes (`DemoPasskeys`: the session's tokens stay in start-api, never in the page) for a
/// registration's options, calls `navigator.credentials.create`, and sends the credential
/// (`toJSON()`, else the same shape by hand) back; the button shows only where WebAuthn is.
enum DemoPasskeyScript {
    static let source = #"""
        (() => {
          const P = window.PublicKeyCredential;
          const section = document.getElementById("add-passkey");
          if (!P || !navigator.credentials || !section) return;
          const status = document.getElementById("add-passkey-status");
          section.hidden = false;
          const bytes = (text) => Uint8Array.from(
            atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4)),
            (c) => c.charCodeAt(0));
          const text = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
            .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
          const creation = (json) => P.parseCreationOptionsFromJSON ? P.parseCreationOptionsFromJSON(json) : {
            ...json, challenge: bytes(json.challenge), user: { ...json.user, id: bytes(json.user.id) },
            excludeCredentials: (json.excludeCredentials || []).map((c) => ({ ...c, id: bytes(c.id) })) };
          const encoded = (c) => {
            try { return c.toJSON(); } catch (error) {}
            const r = c.response;
            return { id: c.id, rawId: text(c.rawId), type: c.type, authenticatorAttachment: c.authenticatorAttachment,
              clientExtensionResults: c.getClientExtensionResults(),
              response: { clientDataJSON: text(r.clientDataJSON), attestationObject: text(r.attestationObject),
                transports: r.getTransports ? r.getTransports() : [] } };
          };
          const post = async (path, body) => {
            const answer = await fetch(path, { method: "POST", headers: { "content-type": "application/json" },
              body: JSON.stringify(body) });
            const json = await answer.json();
            if (!answer.ok) throw new Error(json.msg || json.message || "refused");
            return json;
          };
          section.querySelector("button").addEventListener("click", async () => {
            status.textContent = "";
            try {
              const begun = await post("/app/passkeys/options", {});
              const credential = await navigator.credentials.create({ publicKey: creation(begun.options) });
              const passkey = await post("/app/passkeys/verify",
                { challenge_id: begun.challenge_id, credential: encoded(credential) });
              status.textContent = "Passkey added: " + passkey.friendly_name + ".";
            } catch (error) {
              status.textContent = "No passkey was added (" + error.message + ").";
            }
          });
        })();
        """#
}
