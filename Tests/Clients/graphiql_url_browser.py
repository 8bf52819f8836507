"""GraphiQL's opening document and shareable links, in real headless Chromium (Debian's chromium
and chromium-driver, driven by Debian's python3-selenium), offline as graphiql_browser.py.

1. Opened bare (a fresh profile), the query editor holds the server's example document, and one
   click on the run button answers it.
2. Opened with ?query=, the editor holds that query and running it answers it; with ?variables=
   and ?operationName= too, the variables editor holds them and a run uses them.
3. Editing the query writes it (and the operation name GraphiQL derives) back to the address.
4. A ?query= holding `</script>` and markup is only text in the editor.

With --fallback it checks the plain query box of a gateway without GraphiQL files instead: it
opens on the example, or on the link's query, variables and operation name, and typing in it
writes the address.

usage: /usr/bin/python3 graphiql_url_browser.py GATEWAY_URL [--fallback] [--screenshot PNG]
Prints one JSON object of what it saw on its last line; exits 1 on a failed check.
"""
import json
import sys
from urllib.parse import parse_qs, quote, urlsplit

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import WebDriverWait

sys.dont_write_bytecode = True  # no __pycache__ left beside the scripts
from browser_support import checker, screenshot_path, start_chromium  # noqa: E402

url = sys.argv[1]
fallback = "--fallback" in sys.argv
screenshot = screenshot_path()
origin = "{0.scheme}://{0.netloc}".format(urlsplit(url))
QUERY_EDITOR, VARIABLES_EDITOR, RESULT = ".query-editor .CodeMirror", ".variable-editor .CodeMirror", \
    ".result-window .CodeMirror"

driver = start_chromium("graphiql-url-browser-")
check = checker(driver, screenshot)
wait = WebDriverWait(driver, 60)
seen = {}


def editor_value(selector):
    """What the CodeMirror editor `selector` holds now ("" when there is none): React replaces
    elements as it renders, so none is held across waits."""
    return driver.execute_script(
        "var e = document.querySelector(arguments[0]); return e && e.CodeMirror ? e.CodeMirror.getValue() : ''",
        selector)


def open_page(search):
    """Loads the page with `search` appended and waits for the query editor to hold something."""
    driver.get(url + search)
    wait.until(ready.presence_of_element_located((By.CSS_SELECTOR, ".graphiql-container")))
    wait.until(lambda d: editor_value(QUERY_EDITOR).strip() != "")
    return editor_value(QUERY_EDITOR)


def run(expected):
    """Clicks the run button once and returns the answer once it holds `expected`."""
    driver.find_element(By.CSS_SELECTOR, ".execute-button").click()
    try:
        wait.until(lambda d: expected in editor_value(RESULT))
    except Exception:
        check(False, f"no {expected!r} in the result: {editor_value(RESULT)!r}")
    return json.loads(editor_value(RESULT))


def address():
    """The page's address now, its search parameters decoded."""
    parts = urlsplit(driver.current_url)
    return {"path": parts.path, "parameters": {k: v[0] for k, v in parse_qs(parts.query).items()}}


if fallback:
    def box():
        return {name: driver.find_element(By.ID, name).get_property("value")
                for name in ("query", "variables", "operation")}

    driver.get(url)
    wait.until(ready.visibility_of_element_located((By.ID, "fallback")))
    seen["fallbackBare"] = box()
    check(seen["fallbackBare"]["query"].startswith("#"), f"the box opened on {seen['fallbackBare']}")
    driver.find_element(By.ID, "run").click()
    wait.until(lambda d: '"data"' in d.find_element(By.ID, "result").text)
    seen["fallbackBareResult"] = json.loads(driver.find_element(By.ID, "result").text)

    driver.get(url + "?query=" + quote("query Q($name: String!) { artist(name: $name) { name } }", safe="")
               + "&variables=" + quote('{"name": "AC/DC"}', safe="") + "&operationName=Q")
    wait.until(ready.visibility_of_element_located((By.ID, "fallback")))
    seen["fallbackLinked"] = box()
    driver.find_element(By.ID, "run").click()
    wait.until(lambda d: '"AC/DC"' in d.find_element(By.ID, "result").text)
    seen["fallbackLinkedResult"] = json.loads(driver.find_element(By.ID, "result").text)["data"]
    query = driver.find_element(By.ID, "query")
    query.clear()
    query.send_keys("{ __typename }")
    seen["fallbackEditedAddress"] = address()
    if screenshot:
        driver.save_screenshot(screenshot)
    driver.quit()
    print(json.dumps(seen, sort_keys=True))
    sys.exit(0)

# 1. Bare: the server's example, answered with one click; nothing edited, so the address stays.
example = open_page("")
seen["bareQuery"] = example
check(example.startswith("#"), f"the example opens without its comment line: {example!r}")
answer = run('"data"')
seen["bareResult"] = answer
check(isinstance(answer.get("data"), dict) and any(answer["data"].values()) and "errors" not in answer,
      f"the example's answer: {answer}")
seen["bareAddress"] = address()
check(seen["bareAddress"]["parameters"] == {}, f"the address changed unedited: {driver.current_url}")

# 2. A link with a query, then one with variables and an operation name too.
typename = "{ __typename }"
seen["linkedQuery"] = open_page("?query=" + quote(typename, safe=""))
check(seen["linkedQuery"] == typename, f"?query= opened as {seen['linkedQuery']!r}")
seen["linkedResult"] = run('"__typename"')

# Band comes second: without the link's operation name GraphiQL would pick the first.
named = 'query Other { __typename } query Band($name: String!) { artist(name: $name) { name } }'
variables = '{"name": "AC/DC"}'
seen["linkedNamedQuery"] = open_page(
    "?query=" + quote(named, safe="") + "&variables=" + quote(variables, safe="") + "&operationName=Band")
check(seen["linkedNamedQuery"] == named, f"?query= opened as {seen['linkedNamedQuery']!r}")
try:
    wait.until(lambda d: editor_value(VARIABLES_EDITOR) == variables)
except Exception:
    check(False, f"?variables= opened as {editor_value(VARIABLES_EDITOR)!r}")
# With two operations the run button offers a list; Ctrl+Enter outside the query editor runs
# the selected operation.
ActionChains(driver).click([e for e in driver.find_elements(By.CSS_SELECTOR, VARIABLES_EDITOR)
                            if e.is_displayed()][0]).perform()
ActionChains(driver).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(Keys.CONTROL).perform()
try:
    wait.until(lambda d: '"AC/DC"' in editor_value(RESULT))
except Exception:
    check(False, f"the linked operation answered {editor_value(RESULT)!r}")
answer = json.loads(editor_value(RESULT))
seen["linkedNamedResult"] = answer["data"]
check(answer["data"] == {"artist": {"name": "AC/DC"}}, f"the linked operation answered {answer}")

# 3. Editing writes the address: the query, and the operation name GraphiQL derives from it.
seen["linkedTypename"] = open_page("?query=" + quote(typename, safe=""))
editor = [e for e in driver.find_elements(By.CSS_SELECTOR, QUERY_EDITOR) if e.is_displayed()][0]
ActionChains(driver).click(editor).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL) \
    .send_keys(Keys.DELETE).perform()
edited = "query Shared { __typename }"
ActionChains(driver).send_keys(edited).perform()
check(editor_value(QUERY_EDITOR).strip() == edited, f"typed query: {editor_value(QUERY_EDITOR)!r}")
try:
    wait.until(lambda d: address()["parameters"].get("query", "").strip() == edited
               and address()["parameters"].get("operationName") == "Shared")
except Exception:
    check(False, f"the address after the edit: {driver.current_url}")
seen["editedAddress"] = address()
check(seen["editedAddress"]["path"] == urlsplit(url).path, f"the edit moved the page: {driver.current_url}")
# The address is a link: opened as it is, it shows what was typed.
shared = driver.current_url
seen["reopened"] = open_page(shared[len(url):])
check(seen["reopened"].strip() == edited, f"the shared link opened as {seen['reopened']!r}")

# 4. Markup in a link is text in the editor, nothing more.
hostile = '# </script><script>window.injected = 1</script><b id="injected">x</b>\n{ __typename }'
seen["hostileQuery"] = open_page("?query=" + quote(hostile, safe=""))
check(seen["hostileQuery"] == hostile, f"the query with markup opened as {seen['hostileQuery']!r}")
check(driver.execute_script("return window.injected === undefined && !document.getElementById('injected')"),
      "markup from the link ran or rendered")

# Everything the page loaded came from the gateway (nothing from a CDN).
resources = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
check(all(name.startswith(origin + "/") for name in resources), f"resources from elsewhere: {resources}")
if screenshot:
    driver.save_screenshot(screenshot)
driver.quit()
print(json.dumps(seen, sort_keys=True))
