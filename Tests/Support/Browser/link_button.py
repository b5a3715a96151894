"""Opens an emailed link in Debian's headless Chromium (Selenium, nothing downloaded), presses
the page's one button as a person would, and prints where the browser ended up, as JSON:
{"page": the link page's title, "url": the address after the button's POST and its redirect}.

Usage: link_button.py LINK EXPECTED_PREFIX
Waits up to 15 s for the address to start with EXPECTED_PREFIX (a browser that refuses the
redirect, e.g. by the page's form-action, stays on the page).
"""

import json
import sys

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

link, expected = sys.argv[1:3]
options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run"):
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
try:
    driver.get(link)
    page = driver.title
    driver.find_element(By.TAG_NAME, "button").click()
    try:
        WebDriverWait(driver, 15).until(lambda d: d.current_url.startswith(expected))
    except TimeoutException:
        pass
    print(json.dumps({"page": page, "url": driver.current_url}))
finally:
    driver.quit()
