"""The club's online table on the site (docs/online.md): a member opens a table and hands out
its seat links; each seat's page shows what that seat may see and offers the engine's actions."""
