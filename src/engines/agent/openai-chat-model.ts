// OpenAI-compatible Chat Completions (OpenAI, Azure OpenAI's v1 endpoint, OpenRouter, Ollama, vLLM,
// LM Studio…) through the official `openai` SDK.
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import {
  parseToolInput,
  type ChatMessage,
  type ChatModel,
  type ModelReply,
  type ModelClientOptions,
  type ModelRequest,
  type ToolCall,
} from './chat-model.ts';

export function createOpenAIChatModel(options: ModelClientOptions): ChatModel {
  const client = new OpenAI({
    apiKey: options.apiKey,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    maxRetries: options.maxRetries ?? 2,
  });
  return {
    provider: 'openai',
    model: options.model,
    async reply(request: ModelRequest): Promise<ModelReply> {
      const tools: ChatCompletionTool[] = request.tools.map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }));
      const completion = await client.chat.completions.create(
        {
          model: options.model,
          messages: [{ role: 'system', content: request.system }, ...request.messages.flatMap(toOpenAI)],
          ...(tools.length > 0 ? { tools } : {}),
          max_completion_tokens: request.maxOutputTokens,
        },
        { signal: request.signal },
      );
      const choice = completion.choices[0];
      const toolCalls: ToolCall[] = [];
      for (const call of choice?.message.tool_calls ?? []) {
        if (call.type !== 'function') continue;
        toolCalls.push({ id: call.id, name: call.function.name, ...parseToolInput(call.function.arguments) });
      }
      const finish = choice?.finish_reason;
      return {
        text: choice?.message.content ?? '',
        toolCalls,
        usage: { input: completion.usage?.prompt_tokens ?? 0, output: completion.usage?.completion_tokens ?? 0 },
        stop: finish === 'tool_calls' ? 'tool_calls' : finish === 'stop' ? 'end' : finish === 'length' ? 'length' : 'other',
      };
    },
  };
}

function toOpenAI(message: ChatMessage): ChatCompletionMessageParam[] {
  switch (message.role) {
    case 'user':
      return [{ role: 'user', content: message.text }];
    case 'assistant':
      return [
        {
          role: 'assistant',
          content: message.text || null,
          ...(message.toolCalls.length > 0
            ? {
                tool_calls: message.toolCalls.map((c) => ({
                  id: c.id,
                  type: 'function' as const,
                  function: { name: c.name, arguments: JSON.stringify(c.input) },
                })),
              }
            : {}),
        },
      ];
    case 'tool':
      return message.results.map((r) => ({ role: 'tool' as const, tool_call_id: r.id, content: r.content }));
  }
}
