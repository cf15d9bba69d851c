import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CliContext } from '../context.js';
import { CliError } from '../output.js';
import { loadCommandConfig } from '../load-command-config.js';
import { loadConfig } from '../../config/index.js';
import { openApiDocument } from '../../http/routes.js';

export interface OpenApiOptions {
  config?: string;
  output?: string;
  /** Built-in defaults, ignoring $IDP_CONFIG and ./idp.yaml: what `npm run build` ships as dist/openapi.json. */
  defaults?: boolean;
}

/** `idp openapi`: prints (or writes) the OpenAPI 3.1 document of this config, without a database. */
export async function runOpenApi(ctx: CliContext, opts: OpenApiOptions): Promise<number> {
  const config = opts.defaults
    ? await builtInConfig(ctx)
    : await loadCommandConfig(ctx, opts.config, ['openapi', 'branding']);
  const text = `${JSON.stringify(openApiDocument(config), null, 2)}\n`;
  if (!opts.output) {
    ctx.output.out(text.trimEnd());
    return 0;
  }
  const file = path.resolve(ctx.cwd, opts.output);
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  } catch (error) {
    throw new CliError(`cannot write ${opts.output}: ${(error as Error).message}`);
  }
  ctx.output.err(`wrote ${opts.output}`);
  return 0;
}

async function builtInConfig(ctx: CliContext) {
  const result = await loadConfig({ file: null, env: {}, cwd: ctx.cwd });
  if (!result.ok) throw new CliError('the built-in default configuration is invalid');
  return result.config;
}
