#!/usr/bin/env python3
"""Passkeys on the hosted page in a real browser: Debian's headless Chromium, driven by Selenium
through Debian's chromedriver (nothing downloads a browser or a driver), with a WebDriver virtual
authenticator (CTAP2, internal transport, resident keys, user verification) in place of the
platform's.

Usage: hosted_passkey.py BASE_URL SCREENSHOT_DIR EMAIL NAME

BASE_URL is start-api's on localhost (a secure context whose host is the RP ID, `localhost`).
Signs in at BASE_URL/auth?app=demo with "Continue with Google" (the dev provider, as EMAIL /
NAME), adds a passkey with the demo app's "Add a passkey", signs out, then signs in with the
passkey on the hosted page, through the email field's autofill (conditional mediation), and again
with "Sign in with a passkey" in a browser without autofill; signs out, turns the authenticator's
user verification off, and tries the passkey once more. Prints one JSON object of what it saw; the Swift test judges it.
"""
import json
import os
import sys
import time

os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must not fetch anything.

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", "--window-size=480,900"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


def body_text(driver):
    return driver.find_element(By.TAG_NAME, "body").text


def wait_for(driver, condition, seconds=20):
    """Waits until `condition(driver)` holds (a page being replaced may be read stale: read again)."""
    try:
        WebDriverWait(driver, seconds, ignored_exceptions=(StaleElementReferenceException,)).until(condition)
        return True
    except WebDriverException:
        return False


def sign_out(driver):
    driver.find_element(By.XPATH, "//button[text()='Sign out']").click()
    wait_for(driver, lambda d: "signed out" in body_text(d))


def passkey_sign_in(driver, base):
    """Opens the hosted page and presses its passkey button (unless the email field's autofill
    request finished first): what the page is then."""
    driver.get(f"{base}/auth?app=demo")
    wait_for(driver, lambda d: d.find_element(By.XPATH, "//button[text()='Sign in with a passkey']").is_displayed())
    time.sleep(1)  # the autofill's request (conditional mediation) begins meanwhile; the press aborts it
    clicked = False
    try:
        if driver.current_url.startswith(f"{base}/auth"):
            driver.find_element(By.XPATH, "//button[text()='Sign in with a passkey']").click()
            clicked = True
    except WebDriverException:
        pass  # the page is gone already: the caller reports where it went
    wait_for(driver, lambda d: d.current_url.startswith(f"{base}/app/")
             or d.find_element(By.ID, "passkey-status").text != "")
    result = {"url": driver.current_url, "title": driver.title, "text": body_text(driver), "clicked": clicked}
    statuses = driver.find_elements(By.ID, "passkey-status")
    result["status"] = statuses[0].text if statuses else None
    return result


def main():
    base, shots, email, name = sys.argv[1:5]
    os.makedirs(shots, exist_ok=True)
    seen = {}
    driver = browser()
    driver.set_page_load_timeout(30)
    try:
        driver.execute_cdp_cmd("WebAuthn.enable", {"enableUI": False})
        authenticator = driver.execute_cdp_cmd("WebAuthn.addVirtualAuthenticator", {"options": {
            "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
            "hasUserVerification": True, "isUserVerified": True, "automaticPresenceSimulation": True,
        }})["authenticatorId"]

        # The hosted page: the passkey's button shown by its script, the email field's autofill hint.
        driver.get(f"{base}/auth?app=demo")
        button = driver.find_element(By.XPATH, "//button[text()='Sign in with a passkey']")
        wait_for(driver, lambda d: button.is_displayed(), 10)
        seen["passkeyButtonShown"] = button.is_displayed()
        seen["autocomplete"] = driver.find_element(By.ID, "email").get_attribute("autocomplete")
        seen["conditionalMediation"] = driver.execute_async_script(
            "const done = arguments[0]; PublicKeyCredential.isConditionalMediationAvailable"
            " ? PublicKeyCredential.isConditionalMediationAvailable().then(done, () => done(false)) : done(false)")
        driver.save_screenshot(os.path.join(shots, "passkey-sign-in-page.png"))

        # Any sign-in first (Google, through the dev provider), then "Add a passkey" on the app.
        driver.find_element(By.LINK_TEXT, "Continue with Google").click()
        wait_for(driver, lambda d: d.find_elements(By.ID, "name"))
        driver.find_element(By.ID, "email").send_keys(email)
        driver.find_element(By.ID, "name").send_keys(name)
        driver.find_element(By.XPATH, "//button[text()='Sign in']").click()
        wait_for(driver, lambda d: "Sign out" in body_text(d))
        seen["firstText"] = body_text(driver)
        driver.find_element(By.XPATH, "//button[text()='Add a passkey']").click()
        wait_for(driver, lambda d: d.find_element(By.ID, "add-passkey-status").text != "")
        seen["added"] = driver.find_element(By.ID, "add-passkey-status").text
        driver.save_screenshot(os.path.join(shots, "passkey-added.png"))
        credentials = driver.execute_cdp_cmd(
            "WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
        seen["credentials"] = len(credentials)
        seen["residentCredential"] = all(c.get("isResidentCredential") for c in credentials)
        sign_out(driver)

        # Signed out: the passkey alone signs in, on the hosted page: first through the email
        # field's autofill request (the virtual authenticator answers it as a user's pick would),
        # then, in a browser without passkey autofill, with the button.
        driver.get(f"{base}/auth?app=demo")
        wait_for(driver, lambda d: d.current_url.startswith(f"{base}/app/"))
        seen["autofill"] = {"url": driver.current_url, "text": body_text(driver)}
        sign_out(driver)
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source":
            "Object.defineProperty(PublicKeyCredential, 'isConditionalMediationAvailable', {value: undefined})"})
        seen["passkey"] = passkey_sign_in(driver, base)
        driver.save_screenshot(os.path.join(shots, "passkey-signed-in.png"))
        seen["cookiesVisibleToScript"] = driver.execute_script("return document.cookie")
        sign_out(driver)

        # A second run with user verification off: refused.
        driver.execute_cdp_cmd("WebAuthn.setUserVerified", {"authenticatorId": authenticator, "isUserVerified": False})
        seen["unverified"] = passkey_sign_in(driver, base)
        driver.save_screenshot(os.path.join(shots, "passkey-unverified.png"))
    finally:
        driver.quit()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
