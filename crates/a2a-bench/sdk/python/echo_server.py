"""The bench echo server written with a2a-sdk (Python), for `cargo xtask bench`.

Usage: python echo_server.py --host 127.0.0.1 --port PORT [--stream-events N]

The same agent as crates/a2a-bench/src/bin/server.rs, on the SDK's DefaultRequestHandler with an
InMemoryTaskStore, JSON-RPC at / (A2A 1.0), served by uvicorn: any text -> working, artifact
`echo` with the text, completed; `stream N` -> working, N artifact chunks `chunk 0000 ` ... of
artifact `stream` (append, lastChunk), completed; `hold` -> working until canceled. Setup as in
tests/interop/python/agent.py; the SDK is the one the interop suite installs into
target/interop/venv.
"""

import argparse
import asyncio

import uvicorn

from starlette.applications import Starlette

from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
    Part,
    Task,
    TaskState,
    TaskStatus,
)


class BenchExecutor(AgentExecutor):
    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        text = context.get_user_input()
        if context.current_task is None:
            await event_queue.enqueue_event(Task(
                id=context.task_id,
                context_id=context.context_id,
                status=TaskStatus(state=TaskState.TASK_STATE_SUBMITTED),
                history=[context.message],
            ))
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        await updater.start_work()
        if text.startswith('stream '):
            n = int(text.split(' ', 1)[1])
            for i in range(n):
                await updater.add_artifact([Part(text=f'chunk {i:04} ')], artifact_id='stream',
                                           append=i > 0, last_chunk=i == n - 1)
            await updater.complete()
        elif text == 'hold':
            await asyncio.Event().wait()  # until canceled
        else:
            await updater.add_artifact([Part(text=text)], artifact_id='echo', name='echo')
            await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument('--host', default='127.0.0.1')
    parser.add_argument('--port', type=int, default=7432)
    parser.add_argument('--stream-events', type=int, default=1000)
    args = parser.parse_args()
    url = f'http://{args.host}:{args.port}'
    card = AgentCard(
        name='Echo (a2a-sdk Python)',
        description='Echoes the text of every message as an artifact.',
        version='1.0.0',
        supported_interfaces=[AgentInterface(url=f'{url}/', protocol_binding='JSONRPC',
                                             protocol_version='1.0')],
        capabilities=AgentCapabilities(streaming=True, push_notifications=False),
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain'],
        skills=[AgentSkill(id='echo', name='Echo', description='Repeats the message text.',
                           tags=['echo'])],
    )
    handler = DefaultRequestHandler(
        agent_executor=BenchExecutor(), task_store=InMemoryTaskStore(), agent_card=card)
    app = Starlette(routes=create_agent_card_routes(card)
                    + create_jsonrpc_routes(handler, rpc_url='/'))
    uvicorn.run(app, host=args.host, port=args.port, log_level='warning', lifespan='off',
                access_log=False)


if __name__ == '__main__':
    main()
