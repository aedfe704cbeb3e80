"""An A2A 0.3-only agent written with a2a-sdk 0.3.x (Python): the interop vocabulary over the
0.3 JSON-RPC binding, for our client's 0.3 transport (part 3 of docs/interop.md).

Usage: python agent.py [HOST:PORT]     (default 127.0.0.1:0)

Serves a 0.3 card (`url`, `protocolVersion` 0.3.0, `preferredTransport` JSONRPC) at
/.well-known/agent-card.json and the 0.3 JSON-RPC methods (`message/send`, ...) at /, and prints
`A2A python-0.3 agent at http://HOST:PORT/` as its first line on stdout. It runs in its own venv
(tests/interop/python_v0_3/requirements.txt): a2a-sdk 0.3 cannot share one with 1.3.

The vocabulary is that of tests/interop/python/agent.py (docs/interop.md), in the 0.3 API.
a2a-sdk 0.3 does not check input modes itself: the executor refuses a file of another media
type with ContentTypeNotSupportedError (-32005), as the 1.x agents do.
"""

import asyncio
import socket
import sys
import uuid

import uvicorn

from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.apps import A2AStarletteApplication
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentSkill,
    ContentTypeNotSupportedError,
    FilePart,
    Message,
    Part,
    Role,
    Task,
    TaskState,
    TaskStatus,
    TextPart,
)
from a2a.utils.errors import ServerError

INPUT_MODES = ['text/plain', 'application/json', 'image/png', 'application/pdf']


def text(value):
    return Part(root=TextPart(text=value))


class InteropExecutor(AgentExecutor):
    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        for part in context.message.parts:
            if isinstance(part.root, FilePart) and part.root.file.mime_type not in INPUT_MODES:
                raise ServerError(error=ContentTypeNotSupportedError(
                    message=f'media type {part.root.file.mime_type} is not accepted'))
        line = context.get_user_input()
        command, _, arg = line.partition(' ')
        if context.current_task is None and command == 'hello':
            await event_queue.enqueue_event(Message(
                message_id=str(uuid.uuid4()), role=Role.agent, context_id=context.context_id,
                parts=[text('hi!')]))
            return
        if context.current_task is None:
            await event_queue.enqueue_event(Task(
                id=context.task_id, context_id=context.context_id,
                status=TaskStatus(state=TaskState.submitted), history=[context.message]))
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        if context.current_task is not None:
            # The follow-up to `ask`.
            await updater.start_work()
            await updater.add_artifact([text(f'Sunny in {line}.')], artifact_id='forecast',
                                       name='forecast')
            await updater.complete()
        elif command == 'ask':
            await updater.requires_input(updater.new_agent_message([text('Which city?')]),
                                         final=True)
        elif command == 'wait':
            await updater.start_work()
            await asyncio.sleep(60)  # canceled long before
            await updater.complete()
        elif command == 'slow':
            await updater.start_work()
            await asyncio.sleep(int(arg or '500') / 1000)
            await updater.add_artifact([text('done')], artifact_id='result', name='result')
            await updater.complete()
        elif command == 'parts':
            await updater.start_work()
            await updater.add_artifact(list(context.message.parts), artifact_id='parts',
                                       name='parts')
            await updater.complete()
        elif command == 'fail':
            await updater.start_work()
            await updater.failed(updater.new_agent_message([text('the agent failed on purpose')]))
        elif command == 'chunks':
            n = int(arg or '3')
            await updater.start_work()
            for i in range(n):
                await asyncio.sleep(0.03)
                await updater.add_artifact([text(f'c{i}')], artifact_id='chunks', name='chunks',
                                           append=i > 0, last_chunk=i == n - 1)
            await updater.complete()
        else:
            await updater.start_work()
            await updater.add_artifact([text(line)], artifact_id='echo', name='echo')
            await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


async def main() -> None:
    host, _, port = (sys.argv[1] if len(sys.argv) > 1 else '127.0.0.1:0').rpartition(':')
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, int(port)))
    url = f'http://{host}:{sock.getsockname()[1]}'
    card = AgentCard(
        name='Interop (a2a-sdk 0.3 Python)',
        description='The interop vocabulary: hello, ask, wait, slow, chunks, echo.',
        url=f'{url}/',
        version='1.0.0',
        protocol_version='0.3.0',
        preferred_transport='JSONRPC',
        capabilities=AgentCapabilities(streaming=True, push_notifications=False),
        default_input_modes=INPUT_MODES,
        default_output_modes=['text/plain'],
        skills=[AgentSkill(id='interop', name='Interop', description='The interop vocabulary.',
                           tags=['interop'])],
    )
    handler = DefaultRequestHandler(agent_executor=InteropExecutor(), task_store=InMemoryTaskStore())
    app = A2AStarletteApplication(agent_card=card, http_handler=handler).build(rpc_url='/')
    server = uvicorn.Server(uvicorn.Config(app, log_level='warning', lifespan='off'))
    print(f'A2A python-0.3 agent at {url}/', flush=True)
    await server.serve(sockets=[sock])


if __name__ == '__main__':
    asyncio.run(main())
