// The agent engine's settings from the app's environment: the provider, the model, keys and base
// URLs, the reviewer's model, and the app's ceilings. Every mistake is ENGINE_MISCONFIGURED with a
// message naming the variable to set.
import { describe, expect, it } from 'vitest';
import { agentSettingsFrom, type Environment } from '../../../src/engines/agent/agent-settings.ts';
import { DEFAULT_PRICES } from '../../../src/engines/agent/prices.ts';
import { EngineError } from '../../../src/engines/engine-error.ts';

function misconfigured(env: Environment, withAgent = true): string {
  try {
    agentSettingsFrom(env, withAgent);
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('ENGINE_MISCONFIGURED');
    return (error as EngineError).message;
  }
  throw new Error('expected ENGINE_MISCONFIGURED');
}

const NO_PROVIDER =
  'the agent engine needs a model provider: set OPENAI_API_KEY (and OPENAI_BASE_URL for a compatible server) or ANTHROPIC_API_KEY, and FIXLOOP_MODEL';
const BOTH = 'both OpenAI and Anthropic are configured: set FIXLOOP_PROVIDER=openai or anthropic (or pass --provider)';
const NO_MODEL =
  'the agent engine needs a model: set FIXLOOP_MODEL (or pass --model), e.g. FIXLOOP_MODEL=gpt-4.1 or claude-sonnet-4-5';

describe('agentSettingsFrom: provider and model', () => {
  it('infers OpenAI from the only key present', () => {
    expect(agentSettingsFrom({ OPENAI_API_KEY: 'sk-o', FIXLOOP_MODEL: 'gpt-4.1' }, true)).toStrictEqual({
      implement: { provider: 'openai', model: 'gpt-4.1', apiKey: 'sk-o' },
      review: null,
      prices: { ...DEFAULT_PRICES },
    });
  });

  it('infers Anthropic from the only key present, with its base URL', () => {
    expect(
      agentSettingsFrom(
        { ANTHROPIC_API_KEY: ' sk-a ', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/', FIXLOOP_MODEL: ' claude-sonnet-4-5 ' },
        true,
      ).implement,
    ).toStrictEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      apiKey: 'sk-a',
      baseURL: 'http://127.0.0.1:9/',
    });
  });

  it('asks for FIXLOOP_PROVIDER when both providers have keys, and follows it when set', () => {
    const both = { OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: 'sk-a', FIXLOOP_MODEL: 'm' };
    expect(misconfigured(both)).toBe(BOTH);
    expect(agentSettingsFrom({ ...both, FIXLOOP_PROVIDER: 'anthropic' }, true).implement).toStrictEqual({
      provider: 'anthropic',
      model: 'm',
      apiKey: 'sk-a',
    });
    expect(agentSettingsFrom({ ...both, FIXLOOP_PROVIDER: ' OpenAI ' }, true).implement).toStrictEqual({
      provider: 'openai',
      model: 'm',
      apiKey: 'sk-o',
    });
    // A base URL counts as a configured provider too.
    expect(misconfigured({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', ANTHROPIC_API_KEY: 'sk-a', FIXLOOP_MODEL: 'm' })).toBe(
      BOTH,
    );
  });

  it('names an unknown FIXLOOP_PROVIDER and the providers', () => {
    expect(misconfigured({ OPENAI_API_KEY: 'sk-o', FIXLOOP_MODEL: 'm', FIXLOOP_PROVIDER: 'mistral' })).toBe(
      'FIXLOOP_PROVIDER: unknown provider `mistral`; the providers are: openai, anthropic',
    );
  });

  it('names the provider keys when none is configured', () => {
    expect(misconfigured({ FIXLOOP_MODEL: 'gpt-4.1' })).toBe(NO_PROVIDER);
    expect(misconfigured({ FIXLOOP_MODEL: 'gpt-4.1', OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' })).toBe(NO_PROVIDER);
  });

  it('names FIXLOOP_MODEL when the agent has no model, before anything else', () => {
    expect(misconfigured({ OPENAI_API_KEY: 'sk-o' })).toBe(NO_MODEL);
    expect(misconfigured({ OPENAI_API_KEY: 'sk-o', FIXLOOP_MODEL: '   ' })).toBe(NO_MODEL);
    expect(misconfigured({})).toBe(NO_MODEL);
  });

  it('takes OPENAI_BASE_URL without a key for a local OpenAI-compatible server', () => {
    expect(
      agentSettingsFrom({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', FIXLOOP_MODEL: 'qwen2.5-coder' }, true).implement,
    ).toStrictEqual({
      provider: 'openai',
      model: 'qwen2.5-coder',
      apiKey: 'not-needed',
      baseURL: 'http://127.0.0.1:11434/v1',
    });
  });

  it('names ANTHROPIC_API_KEY when Anthropic has a base URL but no key', () => {
    expect(misconfigured({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', FIXLOOP_MODEL: 'claude-sonnet-4-5' })).toBe(
      "the anthropic provider needs ANTHROPIC_API_KEY in the app's environment",
    );
    expect(misconfigured({ OPENAI_API_KEY: 'sk-o', FIXLOOP_PROVIDER: 'anthropic', FIXLOOP_MODEL: 'claude-sonnet-4-5' })).toBe(
      "the anthropic provider needs ANTHROPIC_API_KEY in the app's environment",
    );
    expect(misconfigured({ ANTHROPIC_API_KEY: 'sk-a', FIXLOOP_PROVIDER: 'openai', FIXLOOP_MODEL: 'gpt-4.1' })).toBe(
      "the openai provider needs OPENAI_API_KEY in the app's environment",
    );
  });

  it('refuses a base URL that is not a URL, naming the variable', () => {
    expect(misconfigured({ OPENAI_API_KEY: 'sk-o', OPENAI_BASE_URL: 'not a url', FIXLOOP_MODEL: 'm' })).toBe(
      'OPENAI_BASE_URL: not an http(s) URL: not a url',
    );
    expect(misconfigured({ ANTHROPIC_API_KEY: 'sk-a', ANTHROPIC_BASE_URL: '/v1', FIXLOOP_MODEL: 'm' })).toBe(
      'ANTHROPIC_BASE_URL: not an http(s) URL: /v1',
    );
    // A host without a scheme parses as a URL with the scheme `localhost:`; it is refused too.
    expect(misconfigured({ OPENAI_BASE_URL: 'localhost:11434/v1', FIXLOOP_MODEL: 'm' })).toBe(
      'OPENAI_BASE_URL: not an http(s) URL: localhost:11434/v1',
    );
  });

  it('ignores a blank base URL', () => {
    expect(
      agentSettingsFrom({ OPENAI_API_KEY: 'sk-o', OPENAI_BASE_URL: '  ', FIXLOOP_MODEL: 'm' }, true).implement,
    ).toStrictEqual({ provider: 'openai', model: 'm', apiKey: 'sk-o' });
  });
});

describe('agentSettingsFrom: the reviewer', () => {
  it('reviews with the agent provider when FIXLOOP_REVIEW_PROVIDER is not set', () => {
    const settings = agentSettingsFrom(
      { OPENAI_API_KEY: 'sk-o', FIXLOOP_MODEL: 'gpt-4.1-mini', FIXLOOP_REVIEW_MODEL: 'gpt-4.1-nano' },
      true,
    );
    expect(settings.implement).toStrictEqual({ provider: 'openai', model: 'gpt-4.1-mini', apiKey: 'sk-o' });
    expect(settings.review).toStrictEqual({ provider: 'openai', model: 'gpt-4.1-nano', apiKey: 'sk-o' });
  });

  it("reviews on its own provider with FIXLOOP_REVIEW_PROVIDER, with that provider's key and base URL", () => {
    const env = {
      OPENAI_API_KEY: 'sk-o',
      ANTHROPIC_API_KEY: 'sk-a',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      FIXLOOP_PROVIDER: 'openai',
      FIXLOOP_MODEL: 'gpt-4.1',
      FIXLOOP_REVIEW_PROVIDER: 'Anthropic',
      FIXLOOP_REVIEW_MODEL: 'claude-haiku-4-5',
    };
    const settings = agentSettingsFrom(env, true);
    expect(settings.implement).toStrictEqual({ provider: 'openai', model: 'gpt-4.1', apiKey: 'sk-o' });
    expect(settings.review).toStrictEqual({
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
      apiKey: 'sk-a',
      baseURL: 'http://127.0.0.1:9',
    });
  });

  it("names the review provider's missing key and an unknown review provider", () => {
    expect(
      misconfigured({
        OPENAI_API_KEY: 'sk-o',
        FIXLOOP_MODEL: 'gpt-4.1',
        FIXLOOP_REVIEW_PROVIDER: 'anthropic',
        FIXLOOP_REVIEW_MODEL: 'claude-haiku-4-5',
      }),
    ).toBe("the anthropic provider needs ANTHROPIC_API_KEY in the app's environment");
    expect(
      misconfigured({
        OPENAI_API_KEY: 'sk-o',
        FIXLOOP_MODEL: 'gpt-4.1',
        FIXLOOP_REVIEW_PROVIDER: 'gemini',
        FIXLOOP_REVIEW_MODEL: 'x',
      }),
    ).toBe('FIXLOOP_REVIEW_PROVIDER: unknown provider `gemini`; the providers are: openai, anthropic');
  });

  it('without the agent, needs no model and no key; a review model alone is enough', () => {
    expect(agentSettingsFrom({}, false)).toStrictEqual({ implement: null, review: null, prices: { ...DEFAULT_PRICES } });
    expect(agentSettingsFrom({ OPENAI_API_KEY: 'sk-o', FIXLOOP_REVIEW_MODEL: 'gpt-4.1-nano' }, false)).toStrictEqual({
      implement: null,
      review: { provider: 'openai', model: 'gpt-4.1-nano', apiKey: 'sk-o' },
      prices: { ...DEFAULT_PRICES },
    });
    // FIXLOOP_MODEL is not the reviewer's and no agent is asked for.
    expect(
      agentSettingsFrom({ OPENAI_API_KEY: 'sk-o', FIXLOOP_MODEL: 'gpt-4.1', FIXLOOP_REVIEW_MODEL: 'gpt-4.1-nano' }, false)
        .implement,
    ).toBeNull();
    // With its own provider, two configured providers are no ambiguity.
    expect(
      agentSettingsFrom(
        {
          OPENAI_API_KEY: 'sk-o',
          ANTHROPIC_API_KEY: 'sk-a',
          FIXLOOP_REVIEW_PROVIDER: 'anthropic',
          FIXLOOP_REVIEW_MODEL: 'claude-haiku-4-5',
        },
        false,
      ).review,
    ).toStrictEqual({ provider: 'anthropic', model: 'claude-haiku-4-5', apiKey: 'sk-a' });
    expect(misconfigured({ OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: 'sk-a', FIXLOOP_REVIEW_MODEL: 'x' }, false)).toBe(BOTH);
    expect(misconfigured({ FIXLOOP_REVIEW_MODEL: 'gpt-4.1-nano' }, false)).toBe(NO_PROVIDER);
  });
});

describe('agentSettingsFrom: ceilings and prices', () => {
  const base = { OPENAI_API_KEY: 'sk-o', FIXLOOP_MODEL: 'gpt-4.1' };

  it('reads the run and daily ceilings as positive numbers', () => {
    const settings = agentSettingsFrom(
      {
        ...base,
        FIXLOOP_MAX_COST_USD: '0.5',
        FIXLOOP_MAX_TOKENS: '200000',
        FIXLOOP_DAILY_COST_USD: ' 12.25 ',
        FIXLOOP_DAILY_TOKENS: '1e6',
      },
      true,
    );
    expect(settings.maxCostUsd).toBe(0.5);
    expect(settings.maxTokens).toBe(200000);
    expect(settings.dailyCostUsd).toBe(12.25);
    expect(settings.dailyTokens).toBe(1_000_000);
  });

  it('leaves a ceiling unset when its variable is absent or blank', () => {
    const settings = agentSettingsFrom({ ...base, FIXLOOP_MAX_COST_USD: '', FIXLOOP_DAILY_TOKENS: '  ' }, true);
    expect(Object.keys(settings).sort()).toEqual(['implement', 'prices', 'review']);
  });

  it.each(['0', '-1', 'abc', 'Infinity', '1.5x'])('refuses %j, naming the variable and the value', (raw) => {
    expect(misconfigured({ ...base, FIXLOOP_MAX_COST_USD: raw })).toBe(
      `FIXLOOP_MAX_COST_USD: expected a positive number, got \`${raw}\``,
    );
    expect(misconfigured({ ...base, FIXLOOP_DAILY_TOKENS: raw })).toBe(
      `FIXLOOP_DAILY_TOKENS: expected a positive whole number, got \`${raw}\``,
    );
  });

  it('checks the ceilings without the agent too', () => {
    expect(misconfigured({ FIXLOOP_MAX_TOKENS: '0' }, false)).toBe(
      'FIXLOOP_MAX_TOKENS: expected a positive whole number, got `0`',
    );
    expect(misconfigured({ FIXLOOP_MAX_TOKENS: '1.5' }, false)).toBe(
      'FIXLOOP_MAX_TOKENS: expected a positive whole number, got `1.5`',
    );
    expect(misconfigured({ FIXLOOP_DAILY_TOKENS: '0x10' }, false)).toBe(
      'FIXLOOP_DAILY_TOKENS: expected a positive whole number, got `0x10`',
    );
    expect(misconfigured({ FIXLOOP_DAILY_COST_USD: '-3' }, false)).toBe(
      'FIXLOOP_DAILY_COST_USD: expected a positive number, got `-3`',
    );
  });

  it('applies FIXLOOP_PRICES, and turns a bad table into ENGINE_MISCONFIGURED with its message', () => {
    expect(agentSettingsFrom({ ...base, FIXLOOP_PRICES: '{"local": {"input": 0, "output": 0}}' }, true).prices.local).toEqual({
      input: 0,
      output: 0,
    });
    expect(misconfigured({ ...base, FIXLOOP_PRICES: '{"m": {"input": -1, "output": 0}}' })).toBe(
      'FIXLOOP_PRICES: m.input: Too small: expected number to be >=0',
    );
    expect(misconfigured({ ...base, FIXLOOP_PRICES: '/nonexistent/fixloop-prices.json' })).toBe(
      'FIXLOOP_PRICES: cannot read /nonexistent/fixloop-prices.json: ENOENT',
    );
  });
});
