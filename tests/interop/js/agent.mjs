// An A2A 1.0 agent written with @a2a-js/sdk (express, and @grpc/grpc-js): the interop vocabulary
// over JSON-RPC, HTTP+JSON (REST) and gRPC.
//
// Usage: node agent.mjs [HOST:PORT]     (default 127.0.0.1:0)
//
// Serves the card at /.well-known/agent-card.json, JSON-RPC at POST / and the REST routes
// (`/message:send`, `/tasks/:taskId`, ..., each also under `/:tenant`) beside it, both declared on
// the card at the same URL, the gRPC service `lf.a2a.v1.A2AService` (the SDK's `grpcService`) on a
// port of its own, declared on the card as `GRPC` at `HOST:PORT`, and prints `A2A js agent at http://HOST:PORT/` as its first line on
// stdout.
//
// The vocabulary (the same as crates/a2a-server/examples/interop_agent.rs; docs/interop.md):
// `hello ...` -> direct message `hi!`; `ask` -> input-required `Which city?`, and the follow-up
// completes with artifact `forecast` = `Sunny in <text>.`; `wait` -> works until canceled;
// `slow <ms>` -> artifact `result` = `done`; `fail` -> works, then throws (failed); `parts ...` ->
// artifact `parts` holding every part of the message; `chunks <n>` -> artifact `chunks` in n chunks `c0`..
// (append, lastChunk); anything else -> artifact `echo` with the text.
//
// With `A2A_INTEROP_LEGACY=1` in the environment (the `js-compat` agent of part 3), the 0.3
// compat layer is on (`legacyCompat`: the 0.3 methods on the same endpoint, for requests with
// `A2A-Version: 0.3` or none) and the card lists a JSONRPC 0.3 interface
// (`duplicateInterfacesForLegacy`).
//
// Copied next to target/interop/node_modules by the runner, so that Node finds the SDK.

import { randomUUID } from 'node:crypto';

import * as grpc from '@grpc/grpc-js';
import express from 'express';

import { Role, TaskState } from '@a2a-js/sdk';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { UserBuilder, agentCardHandler, jsonRpcHandler, restHandler } from '@a2a-js/sdk/server/express';
import { A2AService, grpcService } from '@a2a-js/sdk/server/grpc';

const textPart = (value) => ({ content: { $case: 'text', value }, filename: '', mediaType: '' });

function agentMessage(text, taskId, contextId) {
  return {
    messageId: randomUUID(),
    role: Role.ROLE_AGENT,
    taskId,
    contextId,
    parts: [textPart(text)],
    extensions: [],
    referenceTaskIds: [],
  };
}

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

class InteropExecutor {
  running = new Map(); // taskId -> { controller, contextId }

  async execute(ctx, bus) {
    const { taskId, contextId } = ctx;
    const message = ctx.userMessage;
    const text = message.parts
      .filter((p) => p.content?.$case === 'text')
      .map((p) => p.content.value)
      .join('\n');
    const [command, arg = ''] = text.split(/ (.*)/s);
    if (!ctx.task && command === 'hello') {
      bus.publish(AgentEvent.message(agentMessage('hi!', '', contextId)));
      return;
    }
    const status = (state, msg) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: { state, message: msg, timestamp: new Date().toISOString() },
          metadata: undefined,
        }),
      );
    const artifact = (artifactId, value, append = false, lastChunk = false) =>
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: { artifactId, name: artifactId, description: '', parts: [textPart(value)], extensions: [] },
          append,
          lastChunk,
          metadata: undefined,
        }),
      );
    // Every execution publishes a task first, follow-ups included (the SDK requires it).
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
    if (ctx.task) {
      status(TaskState.TASK_STATE_WORKING);
      artifact('forecast', `Sunny in ${text}.`);
      status(TaskState.TASK_STATE_COMPLETED);
      return;
    }
    const controller = new AbortController();
    this.running.set(taskId, { controller, contextId });
    try {
      switch (command) {
        case 'ask':
          status(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage('Which city?', taskId, contextId));
          return;
        case 'wait':
          status(TaskState.TASK_STATE_WORKING);
          await sleep(60_000, controller.signal);
          if (!controller.signal.aborted) status(TaskState.TASK_STATE_COMPLETED);
          return;
        case 'slow':
          status(TaskState.TASK_STATE_WORKING);
          await sleep(Number(arg || 500), controller.signal);
          if (controller.signal.aborted) return;
          artifact('result', 'done');
          status(TaskState.TASK_STATE_COMPLETED);
          return;
        case 'parts':
          status(TaskState.TASK_STATE_WORKING);
          bus.publish(
            AgentEvent.artifactUpdate({
              taskId,
              contextId,
              artifact: { artifactId: 'parts', name: 'parts', description: '', parts: message.parts, extensions: [] },
              append: false,
              lastChunk: false,
              metadata: undefined,
            }),
          );
          status(TaskState.TASK_STATE_COMPLETED);
          return;
        case 'fail':
          status(TaskState.TASK_STATE_WORKING);
          throw new Error('the agent failed on purpose');
        case 'chunks': {
          const n = Number(arg || 3);
          status(TaskState.TASK_STATE_WORKING);
          for (let i = 0; i < n; i++) {
            await sleep(30, controller.signal);
            if (controller.signal.aborted) return;
            artifact('chunks', `c${i}`, i > 0, i === n - 1);
          }
          status(TaskState.TASK_STATE_COMPLETED);
          return;
        }
        default:
          status(TaskState.TASK_STATE_WORKING);
          artifact('echo', text);
          status(TaskState.TASK_STATE_COMPLETED);
      }
    } finally {
      this.running.delete(taskId);
    }
  }

  async cancelTask(taskId, bus) {
    const entry = this.running.get(taskId);
    entry?.controller.abort();
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

const LEGACY = process.env.A2A_INTEROP_LEGACY === '1';
const legacyCompat = LEGACY ? { enabled: true } : undefined;
const [host, port] = (process.argv[2] ?? '127.0.0.1:0').split(/:(?=[^:]*$)/);
// gRPC needs HTTP/2 end to end: a grpc-js server on a port of its own.
const grpcServer = new grpc.Server();
const grpcPort = await new Promise((resolve, reject) =>
  grpcServer.bindAsync(`${host}:0`, grpc.ServerCredentials.createInsecure(), (err, bound) =>
    err ? reject(err) : resolve(bound),
  ),
);
const app = express();
const server = app.listen(Number(port), host, () => {
  const url = `http://${host}:${server.address().port}`;
  const card = {
    name: 'Interop (@a2a-js/sdk)',
    description: 'The interop vocabulary: hello, ask, wait, slow, chunks, echo.',
    version: '1.0.0',
    supportedInterfaces: (LEGACY ? (i) => duplicateInterfacesForLegacy(i, ['JSONRPC']) : (i) => i)([
      { url: `${url}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
      { url, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: '' },
      { url: `${host}:${grpcPort}`, protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: '' },
    ]),
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    // Parts with another media type are refused (validateInputModes below).
    defaultInputModes: ['text/plain', 'application/json', 'image/png', 'application/pdf'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'interop',
        name: 'Interop',
        description: 'The interop vocabulary.',
        tags: ['interop'],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
  const handler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    new InteropExecutor(),
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    { validateInputModes: true },
  );
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler, legacyCompat }));
  const options = { requestHandler: handler, userBuilder: UserBuilder.noAuthentication };
  // JSON-RPC on POST / only: its router refuses every body that is not application/json, and
  // REST bodies may be application/a2a+json. Every other path goes to the REST router.
  app.post('/', jsonRpcHandler({ ...options, legacyCompat }));
  app.use(restHandler(options));
  grpcServer.addService(A2AService, grpcService(options));
  console.log(`A2A js${LEGACY ? '-compat' : ''} agent at ${url}/`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
