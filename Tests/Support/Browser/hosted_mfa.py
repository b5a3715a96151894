#!/usr/bin/env python3
"""The hosted sign-in's second factor in a real browser: Debian's headless Chromium, driven by
Selenium through Debian's chromedriver (nothing downloads a browser or a driver), against
start-api; prints one JSON object of what it saw, never a secret or a code. The Swift test
(HostedSignInBrowserTests) judges it.

Usage: hosted_mfa.py BASE_URL APIKEY GATEHOUSE_BINARY SCREENSHOT_DIR EMAIL

First EMAIL's user gets a verified TOTP factor through Supabase's own Python client (signed in
by the emailed code, `mfa.enroll`, `mfa.challenge_and_verify` with a code from `pyotp`). Then, in
the browser: the hosted page's email form, the emailed link (read from the local outbox), its
button, the code page; a wrong code, the code the factor was verified with (a replay), and the
authenticator's next code, which lands on the demo app signed in at aal2. Signed out, a second
link's code page refuses the code that signed in (a code works once); that step's handle and
cookie, posted from another site or without the cookie, are refused without counting a try, and
the step's third wrong code ends it. Last, "Continue with Google" at start-api's dev provider
as the same address lands on the code page too.
"""
import json
import os
import sys
import time

os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must not fetch anything.

import httpx
import pyotp
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Supabase"))
import supabase_support  # noqa: E402

base, apikey, gatehouse, shots, email = sys.argv[1:6]


def mails(at_least):
    """The secrets mailed to `email`, oldest first, once there are `at_least` (up to 10 s)."""
    deadline = time.monotonic() + 10
    while True:
        found = [mail for mail in supabase_support.outbox(gatehouse, email)]
        if len(found) >= at_least or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def verified_factor():
    """Signs EMAIL's user in by its emailed code and verifies a new TOTP factor: its generator
    and the code it was verified with."""
    client = supabase_support.client(base, apikey)
    client.sign_in_with_otp({"email": email})
    code = mails(1)[-1]["text"].split("Or enter this code: ")[1][:6]
    client.verify_otp({"email": email, "token": code, "type": "email"})
    enrolled = client.mfa.enroll({"factor_type": "totp", "friendly_name": "phone app", "issuer": "Gatehouse"})
    totp = pyotp.TOTP(enrolled.totp.secret)
    used = totp.now()
    client.mfa.challenge_and_verify({"factor_id": enrolled.id, "code": used})
    return totp, used


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", "--window-size=480,900"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


def submit(driver, by, value):
    """Clicks and waits (15 s at most) for the next page: a form's post returns before it loads."""
    old = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(by, value).click()
    WebDriverWait(driver, 15).until(lambda d: old.id != d.find_element(By.TAG_NAME, "html").id)


def text(driver):
    return WebDriverWait(driver, 15, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: d.find_element(By.TAG_NAME, "body").text)


def code_page(driver, count):
    """The hosted page's email form, then the `count`-th emailed link and its button: the page it
    lands on (the code page for a user with a factor)."""
    driver.get(f"{base}/auth?app=demo")
    driver.find_element(By.ID, "email").send_keys(email)
    submit(driver, By.XPATH, "//button[text()='Email me a sign-in link']")
    link = mails(count)[-1]["secret"]
    driver.get(link)
    submit(driver, By.TAG_NAME, "button")
    return driver.title


def enter(driver, code):
    field = driver.find_element(By.ID, "code")
    field.clear()
    field.send_keys(code)
    submit(driver, By.XPATH, "//button[text()='Continue']")
    return {"title": driver.title, "text": text(driver)}


def main():
    os.makedirs(shots, exist_ok=True)
    totp, used = verified_factor()
    near = {totp.at(time.time() + offset) for offset in (-30, 0, 30, 60)}
    wrong = next(candidate for candidate in ("000000", "111111", "222222", "333333") if candidate not in near)
    seen = {}
    driver = browser()
    driver.set_page_load_timeout(30)
    try:
        seen["codePage"] = code_page(driver, 2)
        seen["codeLabel"] = driver.find_element(By.CSS_SELECTOR, "label[for=code]").text
        seen["autocomplete"] = driver.find_element(By.ID, "code").get_attribute("autocomplete")
        seen["cookiesVisibleToScript"] = driver.execute_script("return document.cookie")
        driver.save_screenshot(os.path.join(shots, "second-factor-page.png"))
        seen["wrong"] = enter(driver, wrong)
        seen["replayed"] = enter(driver, used)
        # The authenticator's next code (one step ahead is inside the window): a step after the
        # one the factor was verified with.
        signed_in_with = totp.at(time.time() + 30)
        seen["right"] = enter(driver, signed_in_with)
        seen["appURL"] = driver.current_url
        driver.save_screenshot(os.path.join(shots, "second-factor-signed-in.png"))

        submit(driver, By.XPATH, "//button[text()='Sign out']")
        seen["secondCodePage"] = code_page(driver, 3)
        seen["replayedAfterSignIn"] = enter(driver, signed_in_with)
        # The step's handle and cookie taken out of the browser: posted from another site, the
        # form is refused; without the cookie (another browser), the step is not found. Neither
        # counts a try: the browser's next wrong code leaves the last one.
        handle = driver.find_element(By.NAME, "pending").get_attribute("value")
        cookie = next(c["value"] for c in driver.get_cookies() if c["name"] == "gh_mfa")
        form = {"pending": handle, "code": wrong}
        with httpx.Client(follow_redirects=False) as web:
            seen["crossSite"] = web.post(f"{base}/auth/email-callback", data=form, cookies={"gh_mfa": cookie},
                                         headers={"Origin": "https://evil.example"}).status_code
            seen["withoutCookie"] = web.post(f"{base}/auth/email-callback", data=form,
                                             headers={"Origin": base}).status_code
        seen["afterForgeries"] = enter(driver, wrong)
        seen["lastTry"] = enter(driver, wrong)

        # "Continue with Google" (start-api's dev provider, vouching for the same address): the
        # callback asks for the code too, instead of returning to the app.
        driver.get(f"{base}/auth?app=demo")
        submit(driver, By.LINK_TEXT, "Continue with Google")
        driver.find_element(By.ID, "email").send_keys(email)
        driver.find_element(By.ID, "name").send_keys("Mfa User")
        submit(driver, By.XPATH, "//button[text()='Sign in']")
        seen["googleCodePage"] = driver.title
        seen["googleURL"] = driver.current_url.split("?")[0]
    finally:
        driver.quit()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
