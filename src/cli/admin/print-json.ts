import type { Output } from '../output.js';

/** `--json`: the API's answer as it came, indented, and nothing else on stdout. */
export function printJson(output: Output, body: unknown): void {
  output.out(JSON.stringify(body, null, 2));
}
