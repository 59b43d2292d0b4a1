import type { Migration } from './index';

/**
 * Customers: full-text search and list indexes.
 *
 * `customers_fts` is an FTS5 external-content table over the customers' searchable columns. Its rowid is
 * `customers.search_rowid`, a stable integer assigned on insert, not the table's implicit rowid: SQLite's VACUUM
 * may renumber implicit rowids (customers has a TEXT primary key), which would silently point the index at other
 * rows. Triggers keep the index in step with every insert, update and delete, whoever writes the row.
 *
 * Tokenizer unicode61 with diacritics folded ("Cafe" finds "Café"); prefix indexes for 2- and 3-character
 * prefixes make the prefix queries the list uses ("acm*") cheap.
 *
 * Indexes serve the list's keyset orders (created_at, name) per team and the upsert's email match.
 */
export const customersSearch: Migration = {
  version: 2,
  name: 'customers-search',
  sql: `
ALTER TABLE customers ADD COLUMN search_rowid INTEGER;
UPDATE customers SET search_rowid = rowid;
CREATE UNIQUE INDEX customers_search_rowid ON customers(search_rowid);

CREATE VIRTUAL TABLE customers_fts USING fts5(
  name, email, billing_email, contact, phone, website, city, vat_number, note,
  content = 'customers', content_rowid = 'search_rowid',
  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
INSERT INTO customers_fts(customers_fts) VALUES ('rebuild');

-- A row inserted without a search_rowid gets the next one (this UPDATE fires customers_fts_au, which indexes it).
CREATE TRIGGER customers_fts_assign AFTER INSERT ON customers WHEN new.search_rowid IS NULL BEGIN
  UPDATE customers SET search_rowid = (SELECT coalesce(max(search_rowid), 0) + 1 FROM customers) WHERE id = new.id;
END;
CREATE TRIGGER customers_fts_ai AFTER INSERT ON customers WHEN new.search_rowid IS NOT NULL BEGIN
  INSERT INTO customers_fts(rowid, name, email, billing_email, contact, phone, website, city, vat_number, note)
  VALUES (new.search_rowid, new.name, new.email, new.billing_email, new.contact, new.phone, new.website, new.city,
          new.vat_number, new.note);
END;
CREATE TRIGGER customers_fts_ad AFTER DELETE ON customers WHEN old.search_rowid IS NOT NULL BEGIN
  INSERT INTO customers_fts(customers_fts, rowid, name, email, billing_email, contact, phone, website, city, vat_number, note)
  VALUES ('delete', old.search_rowid, old.name, old.email, old.billing_email, old.contact, old.phone, old.website,
          old.city, old.vat_number, old.note);
END;
CREATE TRIGGER customers_fts_au AFTER UPDATE ON customers BEGIN
  INSERT INTO customers_fts(customers_fts, rowid, name, email, billing_email, contact, phone, website, city, vat_number, note)
  SELECT 'delete', old.search_rowid, old.name, old.email, old.billing_email, old.contact, old.phone, old.website,
         old.city, old.vat_number, old.note
  WHERE old.search_rowid IS NOT NULL;
  INSERT INTO customers_fts(rowid, name, email, billing_email, contact, phone, website, city, vat_number, note)
  SELECT new.search_rowid, new.name, new.email, new.billing_email, new.contact, new.phone, new.website, new.city,
         new.vat_number, new.note
  WHERE new.search_rowid IS NOT NULL;
END;

CREATE INDEX customers_team_created ON customers(team_id, created_at, id);
CREATE INDEX customers_team_name ON customers(team_id, name COLLATE NOCASE, id);
CREATE INDEX customers_team_email ON customers(team_id, email COLLATE NOCASE);
CREATE INDEX customers_team_country ON customers(team_id, country_code);
CREATE INDEX customer_tags_customer ON customer_tags(team_id, customer_id);
`,
};
