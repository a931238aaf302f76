"""The end-to-end check of `toolsift serve`, run by `cargo xtask gateway-e2e`.

The official Python MCP SDK (the client) drives the gateway, which runs the npm reference
servers everything, filesystem and memory: over stdio (the gateway as a child process), then
over streamable HTTP with a bearer token. Every check prints one line; the first failure exits
with status 1.

Usage: client.py TOOLSIFT WORKDIR, where WORKDIR holds node_modules/ with the servers.
"""

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

TOOLSIFT, WORK = sys.argv[1], os.path.abspath(sys.argv[2])
FILES = os.path.join(WORK, "files")
TOKEN = "e2e-token-0123456789"


def check(condition, what, detail=""):
    if not condition:
        print(f"FAIL {what}: {detail}"[:2000])
        sys.exit(1)
    print(f"ok   {what}")


def text(result):
    return "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text")


def names(result):
    try:
        return [hit["name"] for hit in json.loads(result.content[0].text)]
    except (ValueError, KeyError, IndexError, TypeError):
        return []


def write_config():
    os.makedirs(FILES, exist_ok=True)
    with open(os.path.join(FILES, "notes.txt"), "w") as f:
        f.write("toolsift gateway end-to-end\n")
    modules = os.path.join(WORK, "node_modules", "@modelcontextprotocol")
    server = lambda name: os.path.join(modules, f"server-{name}", "dist", "index.js")
    config = {"mcpServers": {
        "everything": {"command": "node", "args": [server("everything")]},
        "filesystem": {"command": "node", "args": [server("filesystem"), FILES]},
        "memory": {"command": "node", "args": [server("memory")],
                   "env": {"MEMORY_FILE_PATH": os.path.join(WORK, "memory.jsonl")}},
    }}
    path = os.path.join(WORK, "servers.json")
    with open(path, "w") as f:
        json.dump(config, f)
    if os.path.exists(os.path.join(WORK, "memory.jsonl")):
        os.remove(os.path.join(WORK, "memory.jsonl"))
    return path


async def exercise(session, transport):
    await session.initialize()
    tools = (await session.list_tools()).tools
    check([t.name for t in tools] == ["tool_search", "tool_describe", "tool_call"],
          f"{transport}: three gateway tools", [t.name for t in tools])
    check(all((t.meta or {}).get("anthropic/alwaysLoad") is True for t in tools),
          f"{transport}: _meta anthropic/alwaysLoad", [t.meta for t in tools])
    description = tools[0].description or ""
    check(all(f"## {s} (" in description for s in ["everything", "filesystem", "memory"]),
          f"{transport}: the search description lists the three servers", description[-600:])

    found = await session.call_tool("tool_search", {"query": "read a text file", "limit": 3})
    check("mcp__filesystem__read_text_file" in names(found), f"{transport}: search finds read_text_file",
          text(found))
    hit = json.loads(found.content[0].text)[0]
    check("input_schema" in hit and "description" in hit, f"{transport}: hits carry schema and description")

    refused = await session.call_tool("tool_search", {"query": "book a flight to Lisbon"})
    check(not refused.is_error and names(refused) == [] and "flight" in text(refused),
          f"{transport}: a refusal with its reason", text(refused))

    selected = await session.call_tool(
        "tool_search", {"query": "select:mcp__memory__read_graph,mcp__everything__echo"})
    check(names(selected) == ["mcp__memory__read_graph", "mcp__everything__echo"],
          f"{transport}: select: bypasses ranking", text(selected))
    exact = await session.call_tool("tool_search", {"query": "create_entities"})
    check(names(exact) == ["mcp__memory__create_entities"], f"{transport}: an exact tool name", text(exact))

    described = await session.call_tool("tool_describe", {"name": "mcp__everything__get-sum"})
    definition = json.loads(text(described))
    check(definition.get("server") == "everything" and "inputSchema" in definition,
          f"{transport}: describe", text(described))

    echoed = await session.call_tool(
        "tool_call", {"name": "mcp__everything__echo", "arguments": {"message": "hi"}})
    check(not echoed.is_error and "hi" in text(echoed), f"{transport}: call everything/echo", text(echoed))
    summed = await session.call_tool(
        "tool_call", {"name": "mcp__everything__get-sum", "arguments": {"a": 2, "b": 3}})
    check("5" in text(summed), f"{transport}: call everything/get-sum", text(summed))
    read = await session.call_tool(
        "tool_call", {"name": "mcp__filesystem__read_text_file",
                      "arguments": {"path": os.path.join(FILES, "notes.txt")}})
    check("end-to-end" in text(read), f"{transport}: call filesystem/read_text_file", text(read))
    outside = await session.call_tool(
        "tool_call", {"name": "mcp__filesystem__read_text_file", "arguments": {"path": "/etc/hostname"}})
    check(outside.is_error, f"{transport}: the server's error comes back as an error", text(outside))
    created = await session.call_tool(
        "tool_call", {"name": "mcp__memory__create_entities", "arguments": {"entities": [
            {"name": f"gateway-{transport}", "entityType": "test", "observations": ["e2e"]}]}})
    check(not created.is_error, f"{transport}: call memory/create_entities", text(created))
    graph = await session.call_tool("tool_call", {"name": "mcp__memory__read_graph", "arguments": {}})
    check(f"gateway-{transport}" in text(graph), f"{transport}: memory keeps it", text(graph))

    timings = []
    for _ in range(50):
        start = time.perf_counter()
        await session.call_tool("tool_search", {"query": "create entities", "limit": 5})
        timings.append(time.perf_counter() - start)
    print(f"info {transport}: tool_search round trip, median of 50: "
          f"{statistics.median(timings) * 1000:.2f} ms")


async def over_stdio(config):
    params = StdioServerParameters(command=TOOLSIFT, args=["serve", "--config", config])
    start = time.perf_counter()
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await exercise(session, "stdio")
    print(f"info stdio: whole session {time.perf_counter() - start:.2f} s")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def over_http(config):
    port = free_port()
    env = dict(os.environ, TOOLSIFT_GATEWAY_TOKEN=TOKEN)
    gateway = subprocess.Popen([TOOLSIFT, "serve", "--config", config, "--http", f"127.0.0.1:{port}"],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        url = f"http://127.0.0.1:{port}/mcp"
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                await asyncio.sleep(0.1)
        async with create_mcp_http_client() as anonymous:
            response = await anonymous.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                                            headers={"Accept": "application/json, text/event-stream"})
            check(response.status_code == 401, "http: a request without the token is refused",
                  response.status_code)
        client = create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"})
        async with client:
            async with streamable_http_client(url, http_client=client) as streams:
                async with ClientSession(streams[0], streams[1]) as session:
                    await exercise(session, "http")
    finally:
        gateway.terminate()
        gateway.wait(timeout=10)


async def main():
    config = write_config()
    await over_stdio(config)
    await over_http(config)
    print("gateway-e2e: all checks passed")


asyncio.run(main())
