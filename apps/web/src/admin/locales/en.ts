import catalog from './en/catalog.json';
import operations from './en/operations.json';
import shell from './en/shell.json';
import support from './en/support.json';

/** The console's catalogue, one file a part of the console (its keys are the ones every language has). */
const en = { ...shell, ...support, ...catalog, ...operations };
export default en;
