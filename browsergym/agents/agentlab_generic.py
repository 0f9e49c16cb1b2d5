"""AgentLab's GenericAgent, unchanged, with its language model on an OpenAI-compatible endpoint.

AgentLab 0.4.2 reaches any OpenAI-compatible server through its own `OpenAIModelArgs`: its
`OpenAIChatModel` makes an `openai.OpenAI` client without a base URL, and that client takes it from
OPENAI_BASE_URL (openai 1.x), the key from OPENAI_API_KEY. Defaults fit `make model-server`
(MODEL=smollm2-135m on 127.0.0.1:8480); a hosted endpoint is the same three variables:

    LLM_BASE_URL  (OPENAI_BASE_URL)   default http://127.0.0.1:8480/v1
    LLM_MODEL                         default smollm2-135m (the name the endpoint serves)
    LLM_API_KEY   (OPENAI_API_KEY)    default "local" (the local server needs none; the client needs one)

The agent is AgentLab's GenericAgent with AgentLab's own configuration for a small model
(FLAGS_GPT_3_5: the accessibility tree, no HTML, no screenshot, thinking, its examples and
hints), its prompt budget fitted to the endpoint's context (LLM_CONTEXT, default 4096 tokens, the
local server's) with room for its parse retries, answers of at most LLM_MAX_TOKENS (256) and
temperature 0. Its action set is the benchmark's (AgentLab's
set_benchmark: BrowserGym's bid, chat, infeasible and navigation actions), so it claims with
send_msg_to_user or report_infeasible. Nothing here changes how GenericAgent works.
"""

from __future__ import annotations

import os
from copy import deepcopy

# litellm (which AgentLab imports for prices) would fetch its model list from the network at import
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("OPENAI_BASE_URL", os.environ.get("LLM_BASE_URL", "http://127.0.0.1:8480/v1"))
os.environ.setdefault("OPENAI_API_KEY", os.environ.get("LLM_API_KEY", "local"))

from agentlab.agents.generic_agent.agent_configs import FLAGS_GPT_3_5  # noqa: E402
from agentlab.agents.generic_agent.generic_agent import GenericAgentArgs  # noqa: E402
from agentlab.llm.chat_api import OpenAIModelArgs  # noqa: E402

MODEL = os.environ.get("LLM_MODEL", "smollm2-135m")
CONTEXT = int(os.environ.get("LLM_CONTEXT", "4096"))
MAX_NEW_TOKENS = int(os.environ.get("LLM_MAX_TOKENS", "256"))
# GenericAgent's own default: an answer it cannot parse is asked again, up to this many times
MAX_RETRY = 4


def agent_args() -> GenericAgentArgs:
    flags = deepcopy(FLAGS_GPT_3_5)
    # each of GenericAgent's parse retries adds the refused answer and AgentLab's error text to the
    # conversation: the first prompt leaves room for all of them within the endpoint's context
    # (a request past it is refused, and AgentLab's client then waits 60 s before each of 4 tries)
    flags.max_prompt_tokens = CONTEXT - (MAX_RETRY + 1) * (MAX_NEW_TOKENS + 64)
    return GenericAgentArgs(
        chat_model_args=OpenAIModelArgs(
            model_name=MODEL,
            max_total_tokens=CONTEXT,
            max_input_tokens=CONTEXT - MAX_NEW_TOKENS,
            max_new_tokens=MAX_NEW_TOKENS,
            temperature=0,
        ),
        flags=flags,
        max_retry=MAX_RETRY,
    )


GENERIC_AGENT = agent_args
