import { chaosSuite } from './helpers/suite.js';

chaosSuite('api');
