// Engines by name, in cascade order.
import type { RepoConfig } from '../config/schema.ts';
import type { Engine } from './engine.ts';
import { EngineError } from './engine-error.ts';
import { createRepairEngine } from './repair/repair-engine.ts';
import { createScriptEngine } from './script-engine.ts';

export function createEngines(config: RepoConfig): Engine[] {
  return config.engines.map((name) => {
    switch (name) {
      case 'repair':
        return createRepairEngine(config.repair.parallelism !== undefined ? { parallelism: config.repair.parallelism } : {});
      case 'script':
        if (!config.script.command) throw new EngineError('ENGINE_MISCONFIGURED', 'the script engine needs a command: pass --script "<command>" or set `script.command` in fixloop.yml');
        return createScriptEngine();
      default:
        throw new EngineError('ENGINE_UNKNOWN', `unknown engine \`${String(name)}\``);
    }
  });
}
