-- Chunk anchors were GitHub-style slugs made from heading text, and sources linked to
-- `url#slug` on pages that may have no such id. Anchors are now only the page's own heading
-- ids (HTML `id`, kept by html-to-text.ts); none of the stored ones is known to be one, so they
-- go. Re-syncing a web document records the real ids.
UPDATE chunks SET anchor = NULL WHERE anchor IS NOT NULL;
