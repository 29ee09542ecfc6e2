import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from './server-node-flags.ts';

const root = path.resolve(import.meta.dirname, '..');
const startScript = (file: string) =>
  (JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as { scripts: { start: string } }).scripts
    .start;

describe('the Node.js flags of the server', () => {
  it.each(['package.json', 'apps/server/package.json'])('%s starts the server with them', (file) => {
    // The command that runs the bundle is `node <the flags> …dist/main.js`, the last of the script.
    const command = startScript(file).split('&&').at(-1)?.trim();
    expect(command).toMatch(new RegExp(`^node ${SERVER_NODE_FLAGS.join(' ')} \\S*dist/main\\.js$`));
  });
});
