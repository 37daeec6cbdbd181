-- Rebuilds the full-text index from the blogs table (npm run search:rebuild). The triggers of
-- migrations/0005_fts.sql keep it in sync; this is the repair for an index that drifted anyway
-- (an import that skipped triggers or renumbered rowids, a restored backup, a D1 export/import,
-- which leaves virtual tables out).
DELETE FROM blog_search;
-- A members' or paid post's gated part is never indexed (migrations/0034_search_public_text_only.sql).
INSERT INTO blog_search (rowid, title, short_description, blog_details, category, author_name)
  SELECT rowid, title, short_description, CASE WHEN visibility = 'public' THEN blog_details WHEN instr(blog_details, '<!--members-only-->') > 0 THEN substr(blog_details, 1, instr(blog_details, '<!--members-only-->') - 1) ELSE '' END, category, author_name FROM blogs;
INSERT INTO blog_search (blog_search) VALUES ('optimize');
-- The accounts' index (migrations/0010_user_search.sql), the same way.
DELETE FROM user_search;
INSERT INTO user_search (rowid, name, email) SELECT rowid, name, email FROM users;
INSERT INTO user_search (user_search) VALUES ('optimize');
-- The every-script index (migrations/0032_search_every_script.sql), the same way and with the same folding.
DELETE FROM blog_search_chars;
INSERT INTO blog_search_chars (rowid, text)
  SELECT rowid, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(title || ' ' || short_description || ' ' || (CASE WHEN visibility = 'public' THEN blog_details WHEN instr(blog_details, '<!--members-only-->') > 0 THEN substr(blog_details, 1, instr(blog_details, '<!--members-only-->') - 1) ELSE '' END) || ' ' || author_name, 'Ά', 'Α'), 'Έ', 'Ε'), 'Ή', 'Η'), 'Ί', 'Ι'), 'Ό', 'Ο'), 'Ύ', 'Υ'), 'Ώ', 'Ω'), 'ά', 'α'), 'έ', 'ε'), 'ή', 'η'), 'ί', 'ι'), 'ό', 'ο'), 'ύ', 'υ'), 'ώ', 'ω'), 'ϊ', 'ι'), 'ϋ', 'υ'), 'ΐ', 'ι'), 'ΰ', 'υ'), 'Ϊ', 'Ι'), 'Ϋ', 'Υ'), 'ё', 'е'), 'Ё', 'Е'), 'й', 'и'), 'Й', 'И'), 'ї', 'і'), 'Ї', 'І'), 'ў', 'у'), 'Ў', 'У') FROM blogs;
INSERT INTO blog_search_chars (blog_search_chars) VALUES ('optimize');
