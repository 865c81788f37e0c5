"""The forum (issue 26): a thread per workshop entry and a board per game; posts in sanitised
Markdown, replies, quotes, reports and moderation."""
