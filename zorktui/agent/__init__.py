"""Policies that propose commands (LLM ReflAct agent, offline explorer, planner), the critic, and the LLM client.

No textual here; openai is imported only when a client is built.
"""
