// Prints an outside agent's identity — the name, command and sha256 a prereg/agent-<name>.md
// registers and every row of its run carries (pipeline/agents/identity.ts).
//   npx rstackbench agent-id --agent "python3 my_agent.py" --files "my_agent.py prompts.txt"
import { main } from '../../core/cli.ts';
import { agentIdentity, splitFiles } from './identity.ts';

await main({
  name: 'agent-id',
  summary: 'prints the identity ({name, command, sha256}) to write into prereg/agent-<name>.md',
  usage: 'agent-id --agent "COMMAND" [--files "PATH …"] [--name NAME]',
  options: {
    agent: { type: 'string', help: 'the command that runs the agent, exactly as given to make run-agent AGENT=… (or $AGENT)' },
    files: { type: 'string', help: 'the files whose bytes identify it, space-separated, relative to the repository (or $AGENT_FILES)' },
    name: { type: 'string', help: "the agent's name in the rows (default: the first file's base name)" },
  },
  async run(values) {
    const id = agentIdentity({ command: values.agent ?? process.env.AGENT ?? '', files: splitFiles(values.files ?? process.env.AGENT_FILES), name: values.name });
    process.stdout.write(JSON.stringify({ name: id.name, command: id.command, files: id.files, sha256: id.sha256 ?? 'none' }, null, 2) + '\n');
    return 0;
  },
});
