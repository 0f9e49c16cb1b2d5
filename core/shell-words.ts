// A command line's words as a POSIX shell splits them, without running anything: blanks separate
// words; '…' is literal; "…" is literal but for \" \\ \$ \` and a newline after \; a \ outside quotes
// keeps the next character. Nothing is expanded ($, globs, ~ stay as written), so ARGS reaches a verb
// as the user typed it inside make's quotes (Makefile: ARGS goes through the environment).
import { UsageError } from './errors.ts';

export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new UsageError(`an unterminated ' in ${JSON.stringify(line)}`);
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      inWord = true;
      for (i++; ; i++) {
        if (i >= line.length) throw new UsageError(`an unterminated " in ${JSON.stringify(line)}`);
        const d = line[i]!;
        if (d === '"') break;
        if (d === '\\' && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1]!)) {
          if (line[i + 1] !== '\n') word += line[i + 1];
          i++;
        } else word += d;
      }
    } else if (c === '\\') {
      if (i + 1 < line.length && line[i + 1] !== '\n') { word += line[i + 1]; inWord = true; }
      i++;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}
