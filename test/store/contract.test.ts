import { backends } from '../helpers/backends.js';
import { storeContract } from './contract.js';

for (const backend of backends()) storeContract(backend);
