import { sqliteBackend } from '../support/store-backends';
import { storeContract } from './contract';

storeContract(sqliteBackend);
