"""An outside agent for RStackBench built on browser-use (PyPI), an open-source LLM agent framework.

It reads the task as a user would give it (RSTACKBENCH_TASK), attaches browser-use to the Chromium
the harness opened (RSTACKBENCH_CDP_URL; browser-use launches and downloads no browser of its own),
lets browser-use's agent loop drive the page with a language model behind any OpenAI-compatible
endpoint (browser-use's own ChatOpenAI with a base URL), and prints browser-use's own final verdict
as the claim, on the last line of stdout:

  browser-use called done  ─▶ {"done": <its success flag>, "message": <its final text>, "actions": n}
  max steps, never done    ─▶ {"done": false, "message": "no done within N steps", "actions": n}
  the model or the browser failed (the last step ended in an error, a crash, an exception)
                           ─▶ a last line that is not a claim: {"error": "…"} — the harness records an
                              error row with that text; this agent never makes a claim up

The model (defaults fit `make model-server`, the smallest catalogued model on 127.0.0.1:8480):
  LLM_BASE_URL    http://127.0.0.1:8480/v1
  LLM_MODEL       smollm2-135m
  LLM_API_KEY     the key, if the endpoint needs one (else OPENAI_API_KEY; else "local"); read from
                  the environment only, never printed
  LLM_MAX_TOKENS  256   the most tokens one answer may take (prompt + this must fit the server's context;
                        a flash-mode answer is ~50; under the local server's grammar ~1.5 tokens/s at 135M)
  LLM_TIMEOUT_S   300   one model call
  LLM_SEED        20261201 (sent as `seed`; the local server decodes greedily with its own fixed seed)
The agent:
  AGENT_MAX_STEPS 6     browser-use steps (one model call each)
  AGENT_ACTIONS   done,click,input,select_dropdown,dropdown_options,scroll,wait,send_keys,find_text
                        the browser-use actions offered (all: its 24); each is in the answer's schema
  AGENT_FLASH     1     browser-use's flash mode: its short system prompt and an output of memory and
                        actions only. Its full prompt is 24 KB (≈6,000 tokens), more than the local server's 4096-token
                        context; set 0 for an endpoint with a larger context.
Always: no vision (text only), temperature 0, no judge, no planner, no extra answer after a failure,
telemetry and cloud sync off. Chromium only (Firefox gives no CDP endpoint).
"""
import os

# before browser_use is imported: it reads these once, and nothing may leave this machine
os.environ.setdefault("ANONYMIZED_TELEMETRY", "false")
os.environ.setdefault("BROWSER_USE_CLOUD_SYNC", "false")
os.environ.setdefault("BROWSER_USE_VERSION_CHECK", "false")
os.environ.setdefault("BROWSER_USE_CLOUD_HINTS", "false")

import asyncio  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402

from browser_use import Agent, BrowserSession, ChatOpenAI, Tools  # noqa: E402

# what a form on one page needs; every action browser-use offers is in the schema the model must
# answer in, and each one costs prompt and grammar (AGENT_ACTIONS=all keeps them all)
FORM_ACTIONS = ['done', 'click', 'input', 'select_dropdown', 'dropdown_options', 'scroll', 'wait', 'send_keys', 'find_text']


def out(line):
    print(json.dumps(line), flush=True)


def fail(message):
    # not a claim (schemas/claim.schema.json has no "error"): the harness records an error row
    out({"error": message[:500]})
    sys.exit(0)


def env_int(name, default):
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        fail(f"{name} must be a whole number, not {os.environ[name]!r}")


async def main():
    if "RSTACKBENCH_CDP_URL" not in os.environ:
        fail("this example attaches browser-use over CDP: run it with BROWSER=chromium")
    task = json.loads(os.environ["RSTACKBENCH_TASK"])
    max_steps = env_int("AGENT_MAX_STEPS", 6)
    llm = ChatOpenAI(
        model=os.environ.get("LLM_MODEL", "smollm2-135m"),
        base_url=os.environ.get("LLM_BASE_URL", "http://127.0.0.1:8480/v1"),
        api_key=os.environ.get("LLM_API_KEY") or os.environ.get("OPENAI_API_KEY") or "local",
        temperature=0,
        seed=env_int("LLM_SEED", 20261201),
        frequency_penalty=None,  # the local server decodes greedily and offers no penalties
        max_completion_tokens=env_int("LLM_MAX_TOKENS", 256),
        timeout=float(env_int("LLM_TIMEOUT_S", 300)),
        max_retries=1,
        # browser-use's schema says `min_items` (not JSON Schema's minItems); grammar-backed servers
        # such as the local one refuse the unknown keyword
        remove_min_items_from_schema=True,
    )
    # keep_alive: browser-use must never stop the harness's browser; stop() below only disconnects
    session = BrowserSession(cdp_url=os.environ["RSTACKBENCH_CDP_URL"], keep_alive=True)
    tools = Tools()
    actions_wanted = os.environ.get("AGENT_ACTIONS", ",".join(FORM_ACTIONS))
    if actions_wanted != "all":
        keep = set(actions_wanted.split(","))
        tools = Tools(exclude_actions=[a for a in tools.registry.registry.actions if a not in keep])
    agent = Agent(
        tools=tools,
        # the start page is open already; it is named so the model knows where it is
        task=f"{task['instruction']}\nThe page {task['start_url']} is open in the browser already.",
        llm=llm,
        browser_session=session,
        use_vision=False,
        flash_mode=os.environ.get("AGENT_FLASH", "1") != "0",
        use_judge=False,
        enable_planning=False,
        final_response_after_failure=False,
        directly_open_url=False,
        max_failures=2,
        max_actions_per_step=3,
        llm_timeout=env_int("LLM_TIMEOUT_S", 300),
        step_timeout=env_int("LLM_TIMEOUT_S", 300) + 60,
        enable_signal_handler=False,
        calculate_cost=False,
    )
    try:
        history = await agent.run(max_steps=max_steps)
    finally:
        try:
            await asyncio.wait_for(session.stop(), timeout=10)
        except Exception as error:  # disconnecting is best effort; the harness owns the browser
            print(f"browser-use: disconnect: {error}", file=sys.stderr)
    steps = history.number_of_steps()
    actions = sum(1 for h in history.history for r in h.result if not r.error)
    errors = history.errors()
    # at its step limit browser-use appends a result of its own saying so; what the steps before it
    # ended in decides whether that is a "not done" or a failure
    while errors and errors[-1] and errors[-1].startswith("Failed to complete task in maximum steps"):
        errors = errors[:-1]
    print(f"browser-use: {steps} steps, done={history.is_done()}, success={history.is_successful()}, errors={errors}", file=sys.stderr)
    if history.is_done():
        claim = {"done": history.is_successful() is True, "actions": actions}
        if history.final_result():
            claim["message"] = history.final_result()[:2000]
        out(claim)
    elif errors and errors[-1]:
        fail(f"browser-use step {steps}: {errors[-1]}")
    elif steps == 0:
        fail("browser-use ran no step")
    else:
        out({"done": False, "message": f"browser-use: no done within {steps} steps", "actions": actions})


try:
    asyncio.run(main())
except SystemExit:
    raise
except BaseException as error:  # a crash is recorded as one, never as a claim
    fail(f"browser-use: {type(error).__name__}: {error}")
