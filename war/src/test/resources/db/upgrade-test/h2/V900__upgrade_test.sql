-- A stand-in for a later migration (SchemaScriptsTest; numbered past every real script): it changes a table V1 made and copies data.
ALTER TABLE journal_setting ADD COLUMN upgrade_note VARCHAR(64);
UPDATE journal_setting SET upgrade_note = 'kept: ' || setting_value;
