// Engines by name, in cascade order. Each engine's module loads only when a run asks for it.
import type { RepoConfig } from '../config/schema.ts';
import type { Engine } from './engine.ts';
import { EngineError } from './engine-error.ts';
import { createScriptEngine } from './script-engine.ts';

export async function createEngines(config: RepoConfig): Promise<Engine[]> {
  const engines: Engine[] = [];
  for (const name of config.engines) {
    switch (name) {
      case 'repair': {
        const { createRepairEngine } = await import('./repair/repair-engine.ts');
        engines.push(createRepairEngine(config.repair.parallelism !== undefined ? { parallelism: config.repair.parallelism } : {}));
        break;
      }
      case 'script':
        if (!config.script.command) throw new EngineError('ENGINE_MISCONFIGURED', 'the script engine needs a command: pass --script "<command>" or set `script.command` in fixloop.yml');
        engines.push(createScriptEngine());
        break;
      default:
        throw new EngineError('ENGINE_UNKNOWN', `unknown engine \`${String(name)}\``);
    }
  }
  return engines;
}
