"""GraphiQL in real headless Chromium (Debian's chromium and chromium-driver, driven by Debian's
python3-selenium), offline: every host name but the loopback address fails to resolve, so
anything the page tried to load from a CDN would fail. Through the UI it opens the schema
docs, types a query (autocomplete must offer `artist`), its variables and a request header,
runs it and waits for the answer in the result pane, then checks the history lists it and
that every resource the page loaded came from the gateway itself.

With --fallback it checks the page of a gateway without GraphiQL files instead: the plain
query box shows at once and answers a query.

usage: /usr/bin/python3 graphiql_browser.py GATEWAY_URL REQUEST_ID [--fallback] [--screenshot PNG]
Prints one JSON object of what it saw on its last line; exits 1 on a failed check.
Chromium's scratch files go to a private TMPDIR removed on exit (browser_support.py).
"""
import json
import sys
import time
from urllib.parse import urlsplit

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import WebDriverWait

sys.dont_write_bytecode = True  # no __pycache__ left beside the scripts
from browser_support import checker, screenshot_path, start_chromium  # noqa: E402

url, request_id = sys.argv[1], sys.argv[2]
fallback = "--fallback" in sys.argv
screenshot = screenshot_path()
origin = "{0.scheme}://{0.netloc}".format(urlsplit(url))
QUERY = "query Page($name: String!) { artist(name: $name) { name albums(first: 2) { title } } }"

driver = start_chromium("graphiql-browser-")
check = checker(driver, screenshot)
wait = WebDriverWait(driver, 60)
seen = {}
started = time.monotonic()
driver.get(url)

if fallback:
    box = wait.until(ready.visibility_of_element_located((By.ID, "fallback")))
    seen["fallbackShownMs"] = round((time.monotonic() - started) * 1000)
    check("GraphiQL is not installed on this server" in box.text, f"fallback note: {box.text}")
    query = driver.find_element(By.ID, "query")
    query.clear()
    query.send_keys('{ artist(name: "AC/DC") { name } }')
    driver.find_element(By.ID, "run").click()
    wait.until(lambda d: '"AC/DC"' in d.find_element(By.ID, "result").text)
    seen["fallbackResult"] = json.loads(driver.find_element(By.ID, "result").text)
else:
    wait.until(ready.presence_of_element_located((By.CSS_SELECTOR, ".graphiql-container")))
    seen["graphiqlShownMs"] = round((time.monotonic() - started) * 1000)

    # Schema docs: the documentation explorer lists the root type's fields once the schema
    # came back from introspection.
    def text_of(selector):
        """The text of the element `selector` finds now ("" when there is none): React
        replaces elements as it renders, so none is held across waits."""
        return driver.execute_script(
            "var e = document.querySelector(arguments[0]); return e ? e.innerText : ''", selector)

    driver.find_element(By.CSS_SELECTOR, ".docExplorerShow").click()
    wait.until(lambda d: "Query" in text_of(".doc-explorer-contents"))
    driver.find_element(By.CSS_SELECTOR, ".doc-explorer-contents").find_element(By.LINK_TEXT, "Query").click()
    wait.until(lambda d: "artist" in text_of(".doc-explorer-contents") and "albums" in text_of(".doc-explorer-contents"))
    seen["docs"] = [line for line in text_of(".doc-explorer-contents").splitlines() if line.startswith("artist")]

    def visible(selector):
        shown = [element for element in driver.find_elements(By.CSS_SELECTOR, selector) if element.is_displayed()]
        check(len(shown) == 1, f"{len(shown)} visible elements match {selector}")
        return shown[0]

    def type_into(selector, text):
        """Clicks a CodeMirror editor, selects what it holds and types `text` key by key."""
        editor = visible(selector)
        ActionChains(driver).click(editor).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL) \
            .send_keys(Keys.DELETE).perform()
        ActionChains(driver).send_keys(text).perform()

    def editor_value(selector):
        return driver.execute_script("return arguments[0].CodeMirror.getValue()", visible(selector))

    def open_tab(title):
        driver.find_element(
            By.XPATH, f"//div[contains(@class, 'variable-editor-title')]//div[text()='{title}']").click()

    # Autocomplete: typing the start of a field offers the schema's fields.
    type_into(".query-editor .CodeMirror", "{ art")
    hints = wait.until(ready.visibility_of_element_located((By.CSS_SELECTOR, ".CodeMirror-hints")))
    seen["autocomplete"] = [hint.text for hint in hints.find_elements(By.CSS_SELECTOR, ".CodeMirror-hint")]
    check("artist" in seen["autocomplete"], f"autocomplete offered {seen['autocomplete']}")
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()

    # The query, its variables and a header, typed in the editors (closing brackets and
    # quotes are inserted by the editor and typed over).
    type_into(".query-editor .CodeMirror", QUERY)
    check(editor_value(".query-editor .CodeMirror").strip() == QUERY,
          f"typed query: {editor_value('.query-editor .CodeMirror')!r}")
    open_tab("Query Variables")
    type_into(".variable-editor .CodeMirror", '{"name": "AC/DC"}')
    check(json.loads(editor_value(".variable-editor .CodeMirror")) == {"name": "AC/DC"},
          f"typed variables: {editor_value('.variable-editor .CodeMirror')!r}")
    open_tab("Request Headers")
    type_into(".variable-editor .CodeMirror", '{"X-Request-Id": "%s"}' % request_id)
    check(json.loads(editor_value(".variable-editor .CodeMirror")) == {"X-Request-Id": request_id},
          f"typed headers: {editor_value('.variable-editor .CodeMirror')!r}")

    # History (opened first: GraphiQL 1.4 records a run in the pane that is mounted).
    driver.find_element(By.XPATH, "//button[contains(@class, 'toolbar-button') and contains(., 'History')]").click()
    driver.find_element(By.CSS_SELECTOR, ".execute-button").click()
    wait.until(lambda d: '"AC/DC"' in editor_value(".result-window .CodeMirror"))
    result = json.loads(editor_value(".result-window .CodeMirror"))
    seen["result"] = result["data"]
    check(result["data"]["artist"]["name"] == "AC/DC", f"result: {result}")

    # The history lists the run.
    try:
        wait.until(lambda d: "Page" in text_of(".history-contents"))
    except Exception:
        check(False, "history: " + repr(driver.execute_script(
            "var e = document.querySelector('.historyPaneWrap'); return e ? e.outerHTML.slice(0, 2000) : 'none'")))
    seen["history"] = text_of(".history-contents").splitlines()

# Everything the page loaded came from the gateway (nothing from a CDN).
resources = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
seen["resources"] = sorted({name[len(origin):] if name.startswith(origin) else name for name in resources})
check(all(name.startswith(origin + "/") for name in resources), f"resources from elsewhere: {resources}")
if screenshot:
    driver.save_screenshot(screenshot)
driver.quit()
print(json.dumps(seen, sort_keys=True))
