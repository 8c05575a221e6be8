import yauzl from 'yauzl';
const zip = await yauzl.openPromise('/tmp/dbg.zip', { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false });
zip.on('entry', async (entry) => {
  console.log('entry', entry.compressedSize, entry.uncompressedSize);
  const s = await zip.openReadStreamPromise(entry);
  s.on('error', (e) => console.log('stream error', e.message));
  s.on('data', (d) => console.log('data', d.length));
  s.on('end', () => console.log('end'));
});
zip.readEntry();
setTimeout(() => console.log('timeout'), 2000);
