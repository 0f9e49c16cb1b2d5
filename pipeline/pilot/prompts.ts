// The pilot's prompts, read from the frozen preregistration prereg/layers-pilot.md (its "## The
// frame" and "## Prompt: <name>" sections, each one ```text block), so what is sent is what was
// frozen. The messages of one request: the frame and the prompt as the system message; the task
// and the time-zero page as the user message.
import fs from 'node:fs';
import path from 'node:path';
import { paths, rel } from '../../core/paths.ts';
import { ValidationError } from '../../core/errors.ts';

export const promptNames = ['ordinary', 'reliability'] as const;
export type PromptName = (typeof promptNames)[number];

export const pilotPreregFile = () => path.join(paths.prereg(), 'layers-pilot.md');

export interface Prompts { frame: string; prompts: Record<PromptName, string> }

function section(text: string, heading: string, file: string): string {
  const at = text.indexOf(`\n## ${heading}\n`);
  if (at < 0) throw new ValidationError(file, null, heading, 'is missing: the prereg needs a "## ' + heading + '" section');
  const line = text.slice(0, at).split('\n').length + 1;
  const m = /^```text\n([\s\S]*?)\n```/m.exec(text.slice(at + heading.length + 5));
  if (!m) throw new ValidationError(file, line, heading, 'has no ```text block');
  return m[1]!.trim();
}

export function readPrompts(file = pilotPreregFile()): Prompts {
  if (!fs.existsSync(file)) throw new ValidationError(rel(file), null, '', 'is missing: the pilot\'s prompts are frozen there');
  const text = fs.readFileSync(file, 'utf8');
  const name = rel(file);
  return {
    frame: section(text, 'The frame (both prompts)', name),
    prompts: { ordinary: section(text, 'Prompt: ordinary', name), reliability: section(text, 'Prompt: reliability', name) },
  };
}

export interface ChatMessage { role: 'system' | 'user'; content: string }

/** What the model receives: never a condition id, layer, severity or fault. */
export function planningMessages(p: Prompts, prompt: PromptName, instruction: string, observation: string): ChatMessage[] {
  return [
    { role: 'system', content: `${p.frame}\n\n${p.prompts[prompt]}` },
    {
      role: 'user',
      content: `Task: ${instruction}\n\nThe page as it is shown now (its accessibility snapshot: roles, names, visible text):\n${observation}`,
    },
  ];
}
