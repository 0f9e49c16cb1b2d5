"""An outside agent for RStackBench, in Python, with Playwright's connect_over_cdp.

It reads the task as a user would give it (RSTACKBENCH_TASK), attaches to the browser the harness
opened (RSTACKBENCH_CDP_URL), works on the page that is open, trusts what the page says, and
prints its claim as the last line of stdout. Install: pip install -r requirements.txt (no browser
download: it drives the harness's browser). Chromium only: connect_over_cdp needs the DevTools
endpoint, and Firefox gives none (BROWSER=firefox gives RSTACKBENCH_WS_ENDPOINT, WebDriver BiDi).
"""
import json
import os
import re
import sys

from playwright.sync_api import sync_playwright

task = json.loads(os.environ["RSTACKBENCH_TASK"])
instruction = task["instruction"]
actions = 0


def claim(done, message=None):
    out = {"done": done, "actions": actions}
    if message:
        out["message"] = message
    print(json.dumps(out), flush=True)


if "RSTACKBENCH_CDP_URL" not in os.environ:
    # no claim: the harness records a crash, not an answer this agent never gave
    sys.exit("this example connects over CDP (connect_over_cdp): run it with BROWSER=chromium")

with sync_playwright() as p:
    browser = p.chromium.connect_over_cdp(os.environ["RSTACKBENCH_CDP_URL"])
    page = browser.contexts[0].pages[0]
    try:
        card = re.search(r'project "([^"]+)", set Mode to "([^"]+)"', instruction)
        profile = re.search(r'account (\S+), set the display name to "([^"]+)" and the time zone to "([^"]+)"', instruction)
        record = re.search(r'Delete the record "([^"]+)"', instruction)
        if card:
            project, mode = card.groups()
            scope = page.locator("section.card").filter(has=page.get_by_role("heading", name=project, exact=True))
            scope.get_by_label("Mode").select_option(mode, timeout=5000)
            actions += 1
            scope.get_by_role("button", name="Save change").click()
            actions += 1
            scope.get_by_role("status").filter(has_text="Saved").wait_for(timeout=5000)
            claim(True)
        elif profile:
            account, name, zone = profile.groups()
            scope = page.locator("form.profile").filter(has=page.get_by_role("heading", name=f"Account {account}", exact=True))
            scope.get_by_label("Display name").fill(name, timeout=5000)
            scope.get_by_label("Time zone").select_option(zone)
            actions += 2
            scope.get_by_role("button", name="Save profile").click()
            actions += 1
            scope.get_by_role("status").filter(has_text="Profile saved").wait_for(timeout=5000)
            claim(True)
        elif record:
            (label,) = record.groups()
            row = page.locator("li.record").filter(has=page.get_by_text(label, exact=True))
            row.get_by_role("button", name="Delete").click(timeout=5000)
            actions += 1
            page.get_by_role("dialog").get_by_role("button", name="Confirm delete").click()
            actions += 1
            page.get_by_role("status").filter(has_text=f"Deleted {label}").wait_for(timeout=5000)
            claim(True)
        else:
            claim(False, f"I do not know how to do: {instruction}")
    except Exception as error:  # the claim says what went wrong; the harness scores the server anyway
        claim(False, str(error).splitlines()[0])
    # the harness owns the browser: disconnect only (closing a CDP-connected browser disconnects)
    browser.close()
