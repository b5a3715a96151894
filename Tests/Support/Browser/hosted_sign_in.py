#!/usr/bin/env python3
"""Signs in through the hosted page in a real browser: Debian's headless Chromium, driven by
Selenium through Debian's chromedriver (nothing downloads a browser or a driver).

Usage: hosted_sign_in.py BASE_URL SCREENSHOT_DIR EMAIL NAME LINK_EMAIL

Opens BASE_URL/auth?app=demo, takes a screenshot of the page, clicks "Continue with Google",
signs in at the dev provider as EMAIL / NAME, follows the redirects to the demo app, reads what
it shows, signs out, then asks for a sign-in link for LINK_EMAIL with the page's email form. Prints one JSON object of what it saw; the Swift test judges it.
"""
import json
import os
import sys

os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must not fetch anything.

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def browser(width, height):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", f"--window-size={width},{height}"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


def click_and_wait(driver, by, value, leaving):
    """Clicks, then waits (15 s at most) until the page titled `leaving` has been replaced:
    a click that submits a form returns before the next page has loaded."""
    driver.find_element(by, value).click()
    try:
        WebDriverWait(driver, 15).until(lambda d: d.title != leaving)
    except Exception:
        pass  # the caller reports what the page is


def main():
    base, shots, email, name, link_email = sys.argv[1:6]
    os.makedirs(shots, exist_ok=True)
    seen = {}
    driver = browser(480, 900)  # a phone-sized window: the page must read there
    driver.set_page_load_timeout(30)
    try:
        driver.get(f"{base}/auth?app=demo")
        seen["signInTitle"] = driver.title
        seen["signInLinks"] = [link.text for link in driver.find_elements(By.TAG_NAME, "a")]
        seen["emailLabel"] = driver.find_element(By.CSS_SELECTOR, "label[for=email]").text
        # The stylesheet ran (the CSP allows it by its hash): links are laid out as buttons.
        seen["linkDisplay"] = driver.execute_script(
            "return getComputedStyle(document.querySelector('a')).display")
        driver.save_screenshot(os.path.join(shots, "sign-in-page.png"))

        click_and_wait(driver, By.LINK_TEXT, "Continue with Google", seen["signInTitle"])
        seen["providerURL"] = driver.current_url.split("?")[0]
        seen["providerTitle"] = driver.title
        driver.find_element(By.ID, "email").send_keys(email)
        driver.find_element(By.ID, "name").send_keys(name)
        driver.save_screenshot(os.path.join(shots, "dev-provider.png"))
        click_and_wait(driver, By.XPATH, "//button[text()='Sign in']", seen["providerTitle"])

        seen["appURL"] = driver.current_url
        seen["appTitle"] = driver.title
        seen["appText"] = driver.find_element(By.TAG_NAME, "body").text
        seen["cookiesVisibleToScript"] = driver.execute_script("return document.cookie")
        driver.save_screenshot(os.path.join(shots, "demo-app.png"))

        driver.find_element(By.XPATH, "//button[text()='Sign out']").click()
        # The body read while the sign-out's POST replaces the page can be the old page's, gone
        # by the time its text is asked: read again rather than fail.
        WebDriverWait(driver, 15, ignored_exceptions=(StaleElementReferenceException,)).until(
            lambda d: "signed out" in d.find_element(By.TAG_NAME, "body").text)
        seen["afterSignOutURL"] = driver.current_url
        seen["afterSignOutText"] = driver.find_element(By.TAG_NAME, "body").text

        # The page's own email form, posted as the browser posts it.
        click_and_wait(driver, By.LINK_TEXT, "Sign in", seen["appTitle"])
        driver.find_element(By.ID, "email").send_keys(link_email)
        click_and_wait(driver, By.XPATH, "//button[text()='Email me a sign-in link']", driver.title)
        seen["emailFormTitle"] = driver.title
    finally:
        driver.quit()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
