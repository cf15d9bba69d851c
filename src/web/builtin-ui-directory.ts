import { fileURLToPath } from 'node:url';

/**
 * The built-in UI's files (pages, scripts, CSS), served as they are. They sit
 * beside this module's source, so the path resolves the same from src/web
 * (tests) and from dist/web (the package, which ships src/web/public).
 */
export const builtinUiDirectory = fileURLToPath(new URL('../../src/web/public/', import.meta.url));
