// Anthropic Messages through the official `@anthropic-ai/sdk`.
import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import {
  parseToolInput,
  type ChatMessage,
  type ChatModel,
  type ModelReply,
  type ModelClientOptions,
  type ModelRequest,
  type ToolCall,
} from './chat-model.ts';

export function createAnthropicChatModel(options: ModelClientOptions): ChatModel {
  const client = new Anthropic({
    apiKey: options.apiKey,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    maxRetries: options.maxRetries ?? 2,
  });
  return {
    provider: 'anthropic',
    model: options.model,
    async reply(request: ModelRequest): Promise<ModelReply> {
      const tools: Tool[] = request.tools.map((t) => ({
        name: t.name,
        description: t.description,
        input_schema: { type: 'object', ...t.parameters },
      }));
      const message = await client.messages.create(
        {
          model: options.model,
          max_tokens: request.maxOutputTokens,
          system: request.system,
          messages: toAnthropic(request.messages),
          ...(tools.length > 0 ? { tools } : {}),
        },
        { signal: request.signal },
      );
      const text: string[] = [];
      const toolCalls: ToolCall[] = [];
      for (const block of message.content) {
        if (block.type === 'text') text.push(block.text);
        else if (block.type === 'tool_use') toolCalls.push({ id: block.id, name: block.name, ...parseToolInput(block.input) });
      }
      const stop = message.stop_reason;
      return {
        text: text.join('\n'),
        toolCalls,
        usage: { input: message.usage.input_tokens, output: message.usage.output_tokens },
        stop:
          stop === 'tool_use'
            ? 'tool_calls'
            : stop === 'end_turn' || stop === 'stop_sequence'
              ? 'end'
              : stop === 'max_tokens'
                ? 'length'
                : 'other',
      };
    },
  };
}

/** Messages must alternate user / assistant: tool results and a following note share one user turn. */
function toAnthropic(messages: ChatMessage[]): MessageParam[] {
  const out: MessageParam[] = [];
  const pushUser = (blocks: ContentBlockParam[]) => {
    const last = out.at(-1);
    if (last?.role === 'user' && Array.isArray(last.content)) last.content.push(...blocks);
    else out.push({ role: 'user', content: blocks });
  };
  for (const message of messages) {
    if (message.role === 'user') pushUser([{ type: 'text', text: message.text }]);
    else if (message.role === 'tool')
      pushUser(
        message.results.map((r) => ({
          type: 'tool_result' as const,
          tool_use_id: r.id,
          content: r.content,
          ...(r.isError ? { is_error: true } : {}),
        })),
      );
    else {
      const blocks: ContentBlockParam[] = [];
      if (message.text) blocks.push({ type: 'text', text: message.text });
      for (const call of message.toolCalls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
      out.push({ role: 'assistant', content: blocks });
    }
  }
  return out;
}
