// The bench echo server written with @a2a-js/sdk (express), for `cargo xtask bench`.
//
// Usage: node echo_server.mjs --host 127.0.0.1 --port PORT [--stream-events N]
//
// The same agent as crates/a2a-bench/src/bin/server.rs, on the SDK's DefaultRequestHandler with
// an InMemoryTaskStore, JSON-RPC at / (A2A 1.0): any text -> working, artifact `echo` with the
// text, completed; `stream N` -> working, N artifact chunks `chunk 0000 ` ... of artifact
// `stream` (append, lastChunk), completed; `hold` -> working until canceled. Setup as in
// tests/interop/js/agent.mjs. The driver copies this file next to a link to the node_modules the
// interop suite installs (target/interop/node_modules), so that Node finds the SDK.

import express from 'express';

import { TaskState } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { UserBuilder, jsonRpcHandler } from '@a2a-js/sdk/server/express';

const textPart = (value) => ({ content: { $case: 'text', value }, filename: '', mediaType: '' });

class BenchExecutor {
  running = new Map(); // taskId -> { release, contextId }

  async execute(ctx, bus) {
    const { taskId, contextId } = ctx;
    const message = ctx.userMessage;
    const text = message.parts
      .filter((p) => p.content?.$case === 'text')
      .map((p) => p.content.value)
      .join('\n');
    const status = (state) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: { state, timestamp: new Date().toISOString() },
          metadata: undefined,
        }),
      );
    const artifact = (artifactId, value, append = false, lastChunk = false, name = '') =>
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: { artifactId, name, description: '', parts: [textPart(value)], extensions: [] },
          append,
          lastChunk,
          metadata: undefined,
        }),
      );
    bus.publish(
      AgentEvent.task(
        ctx.task ?? {
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, timestamp: new Date().toISOString() },
          artifacts: [],
          history: [message],
        },
      ),
    );
    status(TaskState.TASK_STATE_WORKING);
    if (text.startsWith('stream ')) {
      const n = Number(text.slice('stream '.length));
      for (let i = 0; i < n; i++) {
        artifact('stream', `chunk ${String(i).padStart(4, '0')} `, i > 0, i === n - 1);
      }
      status(TaskState.TASK_STATE_COMPLETED);
    } else if (text === 'hold') {
      await new Promise((release) => this.running.set(taskId, { release, contextId }));
    } else {
      artifact('echo', text, false, false, 'echo');
      status(TaskState.TASK_STATE_COMPLETED);
    }
  }

  async cancelTask(taskId, bus) {
    const entry = this.running.get(taskId);
    this.running.delete(taskId);
    entry?.release();
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: entry?.contextId ?? '',
        status: { state: TaskState.TASK_STATE_CANCELED, timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    );
  }
}

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const host = option('host', '127.0.0.1');
const port = Number(option('port', '7433'));
const url = `http://${host}:${port}`;
const card = {
  name: 'Echo (@a2a-js/sdk)',
  description: 'Echoes the text of every message as an artifact.',
  version: '1.0.0',
  supportedInterfaces: [{ url: `${url}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' }],
  capabilities: { streaming: true, pushNotifications: false, extensions: [] },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [
    {
      id: 'echo',
      name: 'Echo',
      description: 'Repeats the message text.',
      tags: ['echo'],
      examples: [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    },
  ],
  signatures: [],
};
const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new BenchExecutor());
const app = express();
app.use('/', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
app.listen(port, host);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
