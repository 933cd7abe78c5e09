import catalog from './mn/catalog.json';
import operations from './mn/operations.json';
import shell from './mn/shell.json';
import support from './mn/support.json';

/** The console's catalogue, one file a part of the console (the same keys as the English, checked by lib/i18n.test.ts). */
const mn = { ...shell, ...support, ...catalog, ...operations };
export default mn;
