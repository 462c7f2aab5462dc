-- Documents now come from more places than a JSON body: uploaded files, one fetched URL, or a
-- crawled site. A crawl is one document whose chunks each remember the page they came from.
ALTER TABLE documents ADD COLUMN source TEXT NOT NULL DEFAULT 'inline'; -- inline | file | url | crawl
ALTER TABLE documents ADD COLUMN source_options TEXT;                   -- JSON: {crawl:{maxPages,maxDepth}} or {fileName}
ALTER TABLE documents ADD COLUMN progress TEXT;                         -- JSON, for background fetches and crawls
ALTER TABLE documents ADD COLUMN synced_at TEXT;                        -- last successful fetch

-- Where each chunk came from: the page url (crawls), the PDF page number.
ALTER TABLE chunks ADD COLUMN url TEXT;
ALTER TABLE chunks ADD COLUMN page INTEGER;
