import type { ConfigPath } from './config-path.js';

export interface InterpolationProblem {
  path: ConfigPath;
  message: string;
}

/**
 * Phase 2: replaces `${NAME}` and `${NAME:-default}` in every string value
 * (keys are never interpolated). `$${` writes a literal `${`. Like a shell,
 * the default also applies when the variable is set but empty. An unquoted
 * value that expands to a number or boolean (`port: ${PORT}`) is read as one,
 * as if it had been written there; quote it to keep a string. Every unset
 * variable without a default is reported, not only the first.
 *
 * It walks the plain value (fast) and asks the document only about the few
 * strings that hold a reference (was it written quoted?).
 */
export function interpolateEnv(
  value: unknown,
  env: Record<string, string | undefined>,
  isPlainScalar: (path: ConfigPath) => boolean,
): { value: unknown; problems: InterpolationProblem[] } {
  const problems: InterpolationProblem[] = [];
  const path: (string | number)[] = [];
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') {
      if (!node.includes('$')) return node;
      const expanded = expandReferences(node, env);
      if (expanded.errors.length > 0) {
        for (const message of expanded.errors) problems.push({ path: [...path], message });
        return node;
      }
      return expanded.hadReference && isPlainScalar(path) ? retype(expanded.text) : expanded.text;
    }
    // New containers, never edits in place: an alias shares one object between two paths.
    if (Array.isArray(node)) {
      return node.map((item, index) => {
        path.push(index);
        const result = walk(item);
        path.pop();
        return result;
      });
    }
    if (node !== null && typeof node === 'object') {
      const copy: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(node)) {
        path.push(key);
        const result = walk(item);
        // A key "__proto__" must stay a plain key, not set the prototype.
        if (key === '__proto__')
          Object.defineProperty(copy, key, { value: result, enumerable: true, writable: true, configurable: true });
        else copy[key] = result;
        path.pop();
      }
      return copy;
    }
    return node;
  };
  return { value: walk(value), problems };
}

const referenceBody = /^([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/;

export function expandReferences(
  text: string,
  env: Record<string, string | undefined>,
): { text: string; hadReference: boolean; errors: string[] } {
  const errors: string[] = [];
  let out = '';
  let hadReference = false;
  let from = 0;
  for (let at = text.indexOf('$'); at !== -1; at = text.indexOf('$', from)) {
    out += text.slice(from, at);
    if (text.startsWith('$${', at)) {
      out += '${';
      from = at + 3;
      continue;
    }
    if (!text.startsWith('${', at)) {
      out += '$';
      from = at + 1;
      continue;
    }
    const end = text.indexOf('}', at + 2);
    if (end === -1) {
      errors.push('unclosed "${" (write "$${" for a literal "${")');
      return { text, hadReference, errors };
    }
    const body = text.slice(at + 2, end);
    const match = referenceBody.exec(body);
    hadReference = true;
    from = end + 1;
    if (!match) {
      // Not the text between the braces: a secret may hold a "${".
      errors.push(
        'a "${…}" that is not an environment reference: write ${NAME} or ${NAME:-default} (or "$${" for a literal "${")',
      );
      continue;
    }
    const name = match[1];
    // Undefined when the reference has no `:-default`.
    const fallback = match[2] as string | undefined;
    const value = env[name];
    if (value !== undefined && value !== '') out += value;
    else if (fallback !== undefined) out += fallback;
    else if (value === undefined)
      errors.push(`environment variable ${name} is not set (write \${${name}:-default} to give a default)`);
  }
  out += text.slice(from);
  return { text: out, hadReference, errors };
}

// YAML 1.2 core schema spellings of booleans and numbers.
const yamlBoolean = /^(?:true|True|TRUE|false|False|FALSE)$/;
const yamlInteger = /^[-+]?[0-9]+$/;
const yamlFloat = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

function retype(text: string): string | number | boolean {
  if (yamlBoolean.test(text)) return text.toLowerCase() === 'true';
  if (yamlInteger.test(text) || yamlFloat.test(text)) return Number(text);
  return text;
}
