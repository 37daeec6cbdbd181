-- Rebuilds the full-text index from the blogs table (npm run search:rebuild). The triggers of
-- migrations/0005_fts.sql keep it in sync; this is the repair for an index that drifted anyway
-- (an import that skipped triggers or renumbered rowids, a restored backup, a D1 export/import,
-- which leaves virtual tables out).
DELETE FROM blog_search;
INSERT INTO blog_search (rowid, title, short_description, blog_details, category, author_name)
  SELECT rowid, title, short_description, blog_details, category, author_name FROM blogs;
INSERT INTO blog_search (blog_search) VALUES ('optimize');
-- The accounts' index (migrations/0010_user_search.sql), the same way.
DELETE FROM user_search;
INSERT INTO user_search (rowid, name, email) SELECT rowid, name, email FROM users;
INSERT INTO user_search (user_search) VALUES ('optimize');
