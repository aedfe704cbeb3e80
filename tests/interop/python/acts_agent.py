"""The ACTS agent under test, written with a2a-sdk (Python): the behaviour contract of the A2A
Conformance Test Specification (§11 of $A2A_SPEC_DIR/acts/acts-specification.md, a draft, A2A
PR #1882) over JSON-RPC, HTTP+JSON (REST) and gRPC, so that `cargo xtask interop` can run the
ACTS suite with our runner (`a2a conformance`) against a server nobody here wrote.

Usage: python acts_agent.py [HOST:PORT]     (default 127.0.0.1:0)

Serves the card at /.well-known/agent-card.json, JSON-RPC at / and the REST routes beside it
(both declared on the card at the same URL), the gRPC service `lf.a2a.v1.A2AService` on a port
of its own (the SDK's `GrpcHandler` on `grpc.aio`, declared as `GRPC` at `HOST:PORT`), and prints
`A2A python-acts agent at http://HOST:PORT/` as its first line on stdout.

The card declares streaming and push notifications: the SDK's in-memory push config store
(`InMemoryPushNotificationConfigStore`) and its sender (`BasePushNotificationSender`, which
POSTs each event to the config's URL, best effort). No authentication, no extended card.

The behaviours, by the prefix of the message's first text part (the same as our own ACTS agent,
`a2a mock --acts`, crates/a2a-cli/examples/acts.yaml):

- `tck-complete-task`: working, artifact `response` = `Completed: <text>`, completed;
- `tck-input-required`, `tck-multi-turn` and any other text: input-required (a follow-up stays
  input-required until its text is `done`);
- `done`: working, artifact `response` = `Conversation complete.`, completed;
- `tck-auth-required`: auth-required; `tck-reject-task`: rejected;
- `tck-message-response`: a direct Message `A direct message: <text>`, no task;
- `tck-artifact-text`, `-file` (inline bytes), `-file-url`, `-data`: completed with that
  artifact;
- `tck-long-running`: working, then after 1.5 s an artifact `result` and completed;
- `tck-cancel`: working until canceled (at most 5 minutes, then failed);
- `tck-stream-basic`: working, artifact `stream` = `Streamed content`, completed;
- `tck-stream-chunked`: working, artifact `chunked` in three appended chunks, completed;
- `tck-task-failure`: working, then failed with a message.
"""

import asyncio
import re
import socket
import sys
import uuid

import grpc
import httpx
import uvicorn

from google.protobuf import struct_pb2
from starlette.applications import Starlette

from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler, GrpcHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
from a2a.server.tasks import (
    BasePushNotificationSender,
    InMemoryPushNotificationConfigStore,
    InMemoryTaskStore,
    TaskUpdater,
)
from a2a.types import a2a_pb2_grpc
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
    Message,
    Part,
    Role,
    Task,
    TaskState,
    TaskStatus,
)


# How long `tck-cancel` works before it gives up waiting for the cancel.
CANCEL_WAIT_SECONDS = 300
# How long a push delivery may take (the suite's webhook URLs are not served here).
PUSH_TIMEOUT_SECONDS = 2.0


def first_text(message: Message) -> str:
    """The text of the message's first text part (the §11 prefix is read from it)."""
    for part in message.parts:
        if part.HasField('text'):
            return part.text
    return ''


def behaviour(text: str) -> str:
    """The §11 prefix the text starts with, `done`, or `` for any other text."""
    if re.fullmatch(r'\s*done\s*', text, flags=re.IGNORECASE):
        return 'done'
    match = re.match(r'tck-[a-z-]+', text)
    return match.group(0) if match else ''


class ActsExecutor(AgentExecutor):
    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        text = first_text(context.message) if context.message else ''
        kind = behaviour(text)
        if context.current_task is None and kind == 'tck-message-response':
            await event_queue.enqueue_event(Message(
                message_id=str(uuid.uuid4()),
                role=Role.ROLE_AGENT,
                context_id=context.context_id,
                parts=[Part(text=f'A direct message: {text}')],
            ))
            return
        if context.current_task is None:
            await event_queue.enqueue_event(Task(
                id=context.task_id,
                context_id=context.context_id,
                status=TaskStatus(state=TaskState.TASK_STATE_SUBMITTED),
                history=[context.message],
            ))
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)

        def say(words: str) -> Message:
            return updater.new_agent_message([Part(text=words)])

        async def complete_with(name: str, parts: list[Part]) -> None:
            await updater.start_work()
            await updater.add_artifact(parts, artifact_id=name, name=name)
            await updater.complete()

        if kind == 'tck-complete-task':
            await complete_with('response', [Part(text=f'Completed: {text}')])
        elif kind == 'done':
            await updater.start_work()
            await updater.add_artifact([Part(text='Conversation complete.')],
                                       artifact_id='response', name='response')
            await updater.complete(say('Conversation complete.'))
        elif kind == 'tck-auth-required':
            await updater.requires_auth(say('Authorization is required.'))
        elif kind == 'tck-reject-task':
            await updater.reject(say('The task is rejected (tck-reject-task).'))
        elif kind == 'tck-artifact-text':
            await complete_with('text', [Part(text='Generated text content')])
        elif kind == 'tck-artifact-file':
            await complete_with('file', [Part(raw=b'Hello, ACTS!', media_type='text/plain',
                                              filename='hello.txt')])
        elif kind == 'tck-artifact-file-url':
            await complete_with('file-url', [Part(url='https://example.com/files/report.pdf',
                                                  media_type='application/pdf',
                                                  filename='report.pdf')])
        elif kind == 'tck-artifact-data':
            data = struct_pb2.Value()
            data.struct_value.update({'key': 'value', 'count': 3, 'items': ['a', 'b']})
            await complete_with('data', [Part(data=data)])
        elif kind == 'tck-long-running':
            await updater.start_work(say('Working (tck-long-running)'))
            await asyncio.sleep(1.5)
            await updater.add_artifact([Part(text='Long-running work done')],
                                       artifact_id='result', name='result')
            await updater.complete()
        elif kind == 'tck-cancel':
            await updater.start_work(say('Working until canceled (tck-cancel)'))
            await asyncio.sleep(CANCEL_WAIT_SECONDS)  # the SDK cancels this on CancelTask
            await updater.failed(say('No cancel came (tck-cancel).'))
        elif kind == 'tck-stream-basic':
            await complete_with('stream', [Part(text='Streamed content')])
        elif kind == 'tck-stream-chunked':
            await updater.start_work()
            chunks = ['first ', 'second ', 'third']
            for i, chunk in enumerate(chunks):
                await updater.add_artifact([Part(text=chunk)], artifact_id='chunked',
                                           name='chunked', append=i > 0,
                                           last_chunk=i == len(chunks) - 1)
            await updater.complete()
        elif kind == 'tck-task-failure':
            await updater.start_work()
            await updater.failed(say('The task failed (tck-task-failure).'))
        else:
            # tck-input-required, tck-multi-turn, and any follow-up but `done`.
            await updater.requires_input(
                say('More input is required (send `done` to finish).'))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


async def main() -> None:
    host, _, port = (sys.argv[1] if len(sys.argv) > 1 else '127.0.0.1:0').rpartition(':')
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, int(port)))
    url = f'http://{host}:{sock.getsockname()[1]}'
    # gRPC needs HTTP/2 end to end: a grpc.aio server on a port of its own.
    grpc_server = grpc.aio.server()
    grpc_port = grpc_server.add_insecure_port(f'{host}:0')
    card = AgentCard(
        name='ACTS agent (a2a-sdk Python)',
        description='The ACTS behaviour contract (§11 of the A2A Conformance Test '
                    'Specification): the prefix of a message selects the behaviour.',
        version='1.0.0',
        supported_interfaces=[
            AgentInterface(url=f'{url}/', protocol_binding='JSONRPC', protocol_version='1.0'),
            AgentInterface(url=url, protocol_binding='HTTP+JSON', protocol_version='1.0'),
            AgentInterface(url=f'{host}:{grpc_port}', protocol_binding='GRPC',
                           protocol_version='1.0'),
        ],
        capabilities=AgentCapabilities(streaming=True, push_notifications=True),
        default_input_modes=['text/plain', 'application/json'],
        default_output_modes=['text/plain', 'application/json'],
        skills=[AgentSkill(id='acts', name='ACTS behaviours',
                           description='The ACTS §11 prefixes, each with its behaviour.',
                           tags=['acts', 'conformance', 'tck'],
                           examples=['tck-complete-task hello', 'tck-multi-turn start',
                                     'tck-stream-basic go'])],
    )
    push_store = InMemoryPushNotificationConfigStore()
    push_client = httpx.AsyncClient(timeout=PUSH_TIMEOUT_SECONDS)
    handler = DefaultRequestHandler(
        agent_executor=ActsExecutor(), task_store=InMemoryTaskStore(), agent_card=card,
        push_config_store=push_store,
        push_sender=BasePushNotificationSender(push_client, push_store),
        validate_input_modes=True)
    # The card and JSON-RPC first: the REST routes end with a catch-all `/{tenant}` mount.
    app = Starlette(routes=create_agent_card_routes(card)
                    + create_jsonrpc_routes(handler, rpc_url='/')
                    + create_rest_routes(handler))
    a2a_pb2_grpc.add_A2AServiceServicer_to_server(GrpcHandler(handler), grpc_server)
    await grpc_server.start()
    server = uvicorn.Server(uvicorn.Config(app, log_level='warning', lifespan='off'))
    print(f'A2A python-acts agent at {url}/', flush=True)
    await server.serve(sockets=[sock])


if __name__ == '__main__':
    asyncio.run(main())
