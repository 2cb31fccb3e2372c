import { redisBackend } from '../support/store-backends';
import { storeContract } from './contract';

// Needs the Redis server on 127.0.0.1:6379 (present on every machine of this project, CI included).
storeContract(redisBackend);
