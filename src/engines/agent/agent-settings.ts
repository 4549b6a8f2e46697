// The agent engine's settings come from the app's environment, never from a repository's file:
// a repository must not choose where its code is sent, with whose key, or how much may be spent.
// Each SDK's standard variables work as users expect (OPENAI_API_KEY, OPENAI_BASE_URL,
// ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL); FIXLOOP_PROVIDER / FIXLOOP_MODEL choose the model.
import { EngineError } from '../engine-error.ts';
import { loadPrices, PriceTableError, type Price } from './prices.ts';

export const PROVIDERS = ['openai', 'anthropic'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export interface ModelSettings {
  provider: ProviderName;
  model: string;
  apiKey: string;
  baseURL?: string;
}

export interface AgentSettings {
  /** The model of the `agent` engine; null when the cascade has no `agent`. */
  implement: ModelSettings | null;
  /** The optional second model that reviews a green patch (FIXLOOP_REVIEW_MODEL). */
  review: ModelSettings | null;
  prices: Record<string, Price>;
  /** The app's ceilings on every run, whatever a repository's file asks for. */
  maxCostUsd?: number;
  maxTokens?: number;
  /** Per repository per UTC day, across all runs. */
  dailyCostUsd?: number;
  dailyTokens?: number;
}

export type Environment = Record<string, string | undefined>;

const misconfigured = (message: string) => new EngineError('ENGINE_MISCONFIGURED', message);

/** The settings, checked; `withAgent` when the cascade has the `agent` engine (its model is then required). */
export function agentSettingsFrom(env: Environment, withAgent: boolean): AgentSettings {
  const model = env.FIXLOOP_MODEL?.trim();
  if (withAgent && !model)
    throw misconfigured(
      'the agent engine needs a model: set FIXLOOP_MODEL (or pass --model), e.g. FIXLOOP_MODEL=gpt-4.1 or claude-sonnet-4-5',
    );
  const reviewModel = env.FIXLOOP_REVIEW_MODEL?.trim();
  const provider = withAgent || (reviewModel && !env.FIXLOOP_REVIEW_PROVIDER?.trim()) ? chooseProvider(env) : null;
  const reviewProvider = env.FIXLOOP_REVIEW_PROVIDER?.trim()
    ? providerName(env.FIXLOOP_REVIEW_PROVIDER, 'FIXLOOP_REVIEW_PROVIDER')
    : provider;
  let prices: Record<string, Price>;
  try {
    prices = loadPrices(env.FIXLOOP_PRICES);
  } catch (error) {
    if (error instanceof PriceTableError) throw misconfigured(error.message);
    throw error;
  }
  const settings: AgentSettings = {
    implement: withAgent && provider && model ? modelSettings(provider, model, env) : null,
    review: reviewModel && reviewProvider ? modelSettings(reviewProvider, reviewModel, env) : null,
    prices,
  };
  const numbers = [
    ['maxCostUsd', 'FIXLOOP_MAX_COST_USD'],
    ['maxTokens', 'FIXLOOP_MAX_TOKENS'],
    ['dailyCostUsd', 'FIXLOOP_DAILY_COST_USD'],
    ['dailyTokens', 'FIXLOOP_DAILY_TOKENS'],
  ] as const;
  for (const [key, variable] of numbers) {
    const value = positiveNumber(env[variable], variable, key === 'maxTokens' || key === 'dailyTokens');
    if (value !== undefined) settings[key] = value;
  }
  return settings;
}

function chooseProvider(env: Environment): ProviderName {
  if (env.FIXLOOP_PROVIDER?.trim()) return providerName(env.FIXLOOP_PROVIDER, 'FIXLOOP_PROVIDER');
  const openai = Boolean(env.OPENAI_API_KEY || env.OPENAI_BASE_URL);
  const anthropic = Boolean(env.ANTHROPIC_API_KEY || env.ANTHROPIC_BASE_URL);
  if (openai !== anthropic) return openai ? 'openai' : 'anthropic';
  throw misconfigured(
    openai
      ? 'both OpenAI and Anthropic are configured: set FIXLOOP_PROVIDER=openai or anthropic (or pass --provider)'
      : 'the agent engine needs a model provider: set OPENAI_API_KEY (and OPENAI_BASE_URL for a compatible server) or ANTHROPIC_API_KEY, and FIXLOOP_MODEL',
  );
}

function providerName(value: string | undefined, variable: string): ProviderName {
  const name = value?.trim().toLowerCase();
  if ((PROVIDERS as readonly string[]).includes(name ?? '')) return name as ProviderName;
  throw misconfigured(`${variable}: unknown provider \`${value}\`; the providers are: ${PROVIDERS.join(', ')}`);
}

function modelSettings(provider: ProviderName, model: string, env: Environment): ModelSettings {
  const keyVariable = provider === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY';
  const baseVariable = provider === 'openai' ? 'OPENAI_BASE_URL' : 'ANTHROPIC_BASE_URL';
  const baseURL = env[baseVariable]?.trim() || undefined;
  if (baseURL !== undefined && !/^https?:\/\//i.test(baseURL))
    throw misconfigured(`${baseVariable}: not an http(s) URL: ${baseURL}`);
  if (baseURL !== undefined && !URL.canParse(baseURL)) throw misconfigured(`${baseVariable}: not a URL: ${baseURL}`);
  let apiKey = env[keyVariable]?.trim();
  // Local OpenAI-compatible servers (Ollama, vLLM, LM Studio) take any key.
  if (!apiKey && provider === 'openai' && baseURL) apiKey = 'not-needed';
  if (!apiKey) throw misconfigured(`the ${provider} provider needs ${keyVariable} in the app's environment`);
  return { provider, model, apiKey, ...(baseURL ? { baseURL } : {}) };
}

function positiveNumber(raw: string | undefined, variable: string, integer: boolean): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw.trim());
  const numeric = /^\d+(\.\d+)?(e\+?\d+)?$/i.test(raw.trim()) && Number.isFinite(value);
  if (!numeric || value <= 0 || (integer && !Number.isInteger(value)))
    throw misconfigured(`${variable}: expected a positive ${integer ? 'whole number' : 'number'}, got \`${raw}\``);
  return value;
}
