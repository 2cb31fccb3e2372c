import { postgresBackend } from '../support/store-backends';
import { storeContract } from './contract';

// Needs the PostgreSQL server on 127.0.0.1:5432 (present on every machine of this project, CI included).
storeContract(postgresBackend);
