// Questions to the person at the terminal: a hidden key, and confirmation of what cannot be undone. Without a
// terminal there is no one to ask: a destructive command then needs --yes (as gh and npm do), never a guess.
import { createInterface } from 'node:readline';
import { UsageError } from './context.js';
import { printable } from './format.js';

/** Reads a key typed at a terminal without echoing it, or piped on stdin. */
export async function readKey(): Promise<string> {
  if (!process.stdin.isTTY) {
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    return text.trim();
  }
  process.stderr.write('API key (input hidden): ');
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  // Echo nothing while the key is typed.
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => {};
  const key = await new Promise<string>((resolve) => rl.question('', resolve));
  rl.close();
  process.stderr.write('\n');
  return key.trim();
}

async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    return await new Promise<string>((resolve) => rl.question(question, resolve));
  } finally {
    rl.close();
  }
}

/**
 * Confirms a permanent action: true with --yes; else the person must type `expected` (a name, as `gh repo
 * delete` asks). Without a terminal on stdin and stderr, a usage error that asks for --yes.
 */
export async function confirmed(what: string, expected: string, yes: boolean | undefined): Promise<boolean> {
  if (yes) return true;
  if (!process.stdin.isTTY || !process.stderr.isTTY) {
    throw new UsageError(`${what} cannot be undone: pass --yes to confirm (there is no terminal to ask)`);
  }
  const answer = await ask(printable(`${what} cannot be undone. Type ${JSON.stringify(expected)} to confirm: `));
  return answer.trim() === expected;
}
