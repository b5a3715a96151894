/// The hosted page's one script, allowed by its SHA-256 in the page's policy (`script-src`,
/// with `connect-src 'self'` for its one request): it shows the passkey's button (hidden
/// without a script or WebAuthn, where it could do nothing), asks `POST /auth/passkey/options`
/// for a sign-in's options, calls `navigator.credentials.get` (the button's, and the email
/// field's autofill, conditional mediation, when the browser has it and the button was not
/// pressed first; a press of the button aborts the autofill's request), and posts the
/// credential (`toJSON()`, else the same shape by hand) with the page's form to
/// `POST /auth/passkey`, which the browser follows to the app.
/// Nothing else: no other request, no storage, no third-party code.
enum PasskeyScript {
    static let source = #"""
        (() => {
          const P = window.PublicKeyCredential;
          const section = document.getElementById("passkey");
          if (!P || !navigator.credentials || !section) return;
          const form = section.querySelector("form");
          const status = document.getElementById("passkey-status");
          section.hidden = false;
          const bytes = (text) => Uint8Array.from(
            atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4)),
            (c) => c.charCodeAt(0));
          const text = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
            .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
          const options = (json) => P.parseRequestOptionsFromJSON ? P.parseRequestOptionsFromJSON(json) : {
            ...json, challenge: bytes(json.challenge),
            allowCredentials: (json.allowCredentials || []).map((c) => ({ ...c, id: bytes(c.id) })) };
          const encoded = (c) => {
            try { return c.toJSON(); } catch (error) {}
            const r = c.response;
            return { id: c.id, rawId: text(c.rawId), type: c.type, authenticatorAttachment: c.authenticatorAttachment,
              clientExtensionResults: c.getClientExtensionResults(),
              response: { clientDataJSON: text(r.clientDataJSON), authenticatorData: text(r.authenticatorData),
                signature: text(r.signature), userHandle: r.userHandle ? text(r.userHandle) : null } };
          };
          let pending = null;
          const signIn = async (mediation) => {
            if (pending) pending.abort();
            const abort = new AbortController();
            pending = abort;
            const answer = await fetch("auth/passkey/options", { method: "POST", signal: abort.signal,
              headers: { "content-type": "application/json" }, body: JSON.stringify({ app: form.elements.app.value }) });
            if (!answer.ok) throw new Error("no options");
            const begun = await answer.json();
            const request = { publicKey: options(begun.options), signal: abort.signal };
            if (mediation) request.mediation = mediation;
            const credential = await navigator.credentials.get(request);
            if (!credential) throw new Error("no credential");
            form.elements.challenge_id.value = begun.challenge_id;
            form.elements.credential.value = JSON.stringify(encoded(credential));
            form.submit();
          };
          section.querySelector("button").addEventListener("click", () => {
            status.hidden = true;
            signIn().catch((error) => {
              if (error.name === "AbortError") return;
              status.textContent = "No passkey signed you in. Try again, or sign in another way.";
              status.hidden = false;
            });
          });
          if (P.isConditionalMediationAvailable) {
            P.isConditionalMediationAvailable().then((yes) => yes && !pending ? signIn("conditional") : null)
              .catch(() => {});
          }
        })();
        """#
}
