"""An A2A 1.0 agent written with a2a-sdk (Python): the interop vocabulary over JSON-RPC,
HTTP+JSON (REST) and gRPC.

Usage: python agent.py [HOST:PORT]     (default 127.0.0.1:0)

Serves the card at /.well-known/agent-card.json, JSON-RPC at / and the REST routes
(`/message:send`, `/tasks/{id}`, ..., each also under `/{tenant}`) beside it, both declared on
the card at the same URL, the gRPC service `lf.a2a.v1.A2AService` on a port of its own (the
SDK's `GrpcHandler` on `grpc.aio`), declared on the card as `GRPC` at `HOST:PORT`, and prints `A2A python agent at http://HOST:PORT/` as its first line
on stdout.

The vocabulary (the same as crates/a2a-server/examples/interop_agent.rs; docs/interop.md):
`hello ...` -> direct message `hi!`; `ask` -> input-required `Which city?`, and the follow-up
completes with artifact `forecast` = `Sunny in <text>.`; `wait` -> works until canceled;
`slow <ms>` -> artifact `result` = `done` after <ms> ms; `fail` -> works, then fails; `parts ...`
-> artifact `parts` holding every part of the message;
`chunks <n>` -> artifact `chunks` in n chunks `c0`, `c1`, ... (append, lastChunk); anything else
-> artifact `echo` with the text.

With `A2A_INTEROP_LEGACY=1` in the environment (the `python-compat` agent of part 3), the 0.3
compat layer is on (`enable_v0_3_compat`: `message/send` and the other 0.3 methods on the same
endpoint) and the card lists a JSONRPC 0.3 interface after the 1.0 one.

`fail` uses `updater.failed()`: an exception from `execute` would answer a blocking SendMessage
with a JSON-RPC -32603 error instead of a failed task (a2a-sdk 1.3.0; our server and the JS SDK
fail the task).
"""

import asyncio
import os
import socket
import sys
import uuid

import grpc
import uvicorn

from starlette.applications import Starlette

from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler, GrpcHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
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


LEGACY = os.environ.get('A2A_INTEROP_LEGACY') == '1'


class InteropExecutor(AgentExecutor):
    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        text = context.get_user_input()
        command, _, arg = text.partition(' ')
        if context.current_task is None and command == 'hello':
            await event_queue.enqueue_event(Message(
                message_id=str(uuid.uuid4()),
                role=Role.ROLE_AGENT,
                context_id=context.context_id,
                parts=[Part(text='hi!')],
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
        if context.current_task is not None:
            # The follow-up to `ask`.
            await updater.start_work()
            await updater.add_artifact([Part(text=f'Sunny in {text}.')], artifact_id='forecast',
                                       name='forecast')
            await updater.complete()
        elif command == 'ask':
            await updater.requires_input(updater.new_agent_message([Part(text='Which city?')]))
        elif command == 'wait':
            await updater.start_work()
            await asyncio.sleep(60)  # canceled long before
            await updater.complete()
        elif command == 'slow':
            await updater.start_work()
            await asyncio.sleep(int(arg or '500') / 1000)
            await updater.add_artifact([Part(text='done')], artifact_id='result', name='result')
            await updater.complete()
        elif command == 'parts':
            await updater.start_work()
            await updater.add_artifact(list(context.message.parts), artifact_id='parts', name='parts')
            await updater.complete()
        elif command == 'fail':
            await updater.start_work()
            await updater.failed(updater.new_agent_message([Part(text='the agent failed on purpose')]))
        elif command == 'chunks':
            n = int(arg or '3')
            await updater.start_work()
            for i in range(n):
                await asyncio.sleep(0.03)
                await updater.add_artifact([Part(text=f'c{i}')], artifact_id='chunks', name='chunks',
                                           append=i > 0, last_chunk=i == n - 1)
            await updater.complete()
        else:
            await updater.start_work()
            await updater.add_artifact([Part(text=text)], artifact_id='echo', name='echo')
            await updater.complete()

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
        name='Interop (a2a-sdk Python)',
        description='The interop vocabulary: hello, ask, wait, slow, chunks, echo.',
        version='1.0.0',
        supported_interfaces=[
            AgentInterface(url=f'{url}/', protocol_binding='JSONRPC', protocol_version='1.0'),
            AgentInterface(url=url, protocol_binding='HTTP+JSON', protocol_version='1.0'),
            AgentInterface(url=f'{host}:{grpc_port}', protocol_binding='GRPC', protocol_version='1.0'),
        ] + ([AgentInterface(url=f'{url}/', protocol_binding='JSONRPC', protocol_version='0.3')]
             if LEGACY else []),
        capabilities=AgentCapabilities(streaming=True, push_notifications=False),
        # Parts with another media type are refused (validate_input_modes below).
        default_input_modes=['text/plain', 'application/json', 'image/png', 'application/pdf'],
        default_output_modes=['text/plain'],
        skills=[AgentSkill(id='interop', name='Interop', description='The interop vocabulary.',
                           tags=['interop'])],
    )
    handler = DefaultRequestHandler(
        agent_executor=InteropExecutor(), task_store=InMemoryTaskStore(), agent_card=card,
        validate_input_modes=True)
    # The card and JSON-RPC first: the REST routes end with a catch-all `/{tenant}` mount.
    app = Starlette(routes=create_agent_card_routes(card)
                    + create_jsonrpc_routes(handler, rpc_url='/', enable_v0_3_compat=LEGACY)
                    + create_rest_routes(handler))
    a2a_pb2_grpc.add_A2AServiceServicer_to_server(GrpcHandler(handler), grpc_server)
    await grpc_server.start()
    server = uvicorn.Server(uvicorn.Config(app, log_level='warning', lifespan='off'))
    print(f'A2A python{"-compat" if LEGACY else ""} agent at {url}/', flush=True)
    await server.serve(sockets=[sock])


if __name__ == '__main__':
    asyncio.run(main())
