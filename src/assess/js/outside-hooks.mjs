// @ts-check
// outside-loader.cjs's hooks in the form `module.register` takes (Node 20.6 to 22.14, which have no
// `module.registerHooks`): asynchronous, run in a thread of their own, the same rules. Copied beside
// outside-call.cjs; never part of the probe runtime.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { loadedAsRunnersDo, specifiersAsRunnersDo, projectTranspiler } = require('./outside-loader.cjs');
const compile = projectTranspiler();

/**
 * @param {string} url
 * @param {unknown} context
 * @param {(url: string, context: unknown) => Promise<import('./outside-loader.cjs').Loaded>} next
 */
export async function load(url, context, next) {
  return loadedAsRunnersDo(await next(url, context), url, compile);
}

/**
 * @param {string} specifier
 * @param {unknown} context
 * @param {(specifier: string, context: unknown) => Promise<unknown>} next
 */
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    const candidates = specifiersAsRunnersDo(specifier, error);
    if (candidates.length === 0) throw error;
    for (const candidate of candidates) {
      try {
        return await next(candidate, context);
      } catch {
        // Not that one either.
      }
    }
    throw error;
  }
}
