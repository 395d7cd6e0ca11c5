// Failure reasons returned to the host. Mirrored in src/reasons.ts (a test keeps the two equal).
export const OK = 0;
export const OUT_OF_MEMORY = 1;

export const SMF_EMPTY = 10;
export const SMF_SHORT = 11;
export const SMF_MAGIC = 12;
export const SMF_VERSION = 13;
export const SMF_PAYLOAD_LIMIT = 14;
export const SMF_PAYLOAD_TRUNCATED = 15;
export const SMF_CRC = 16;
export const SMF_CHANNEL = 17;
export const SMF_FORMAT = 18;
export const SMF_WIDTH = 19;
export const SMF_RESERVED = 20;
export const SMF_RATE = 21;
export const SMF_SCALE = 22;
export const SMF_TIME = 23;
export const SMF_COUNT = 24;
export const SMF_LENGTH_MISMATCH = 25;
export const SMF_MULTI_COUNT = 26;
export const SMF_MULTI_LAYOUT = 27;
export const SMF_MULTI_NESTED = 28;
export const SMF_TRAILING = 29;
export const SMF_MULTI_FIELDS = 30;

export const ENC_RANGE = 40;

export const EDF_SHORT = 50;
export const EDF_MAGIC = 51;
export const EDF_FIELD = 52;
export const EDF_SIGNAL_COUNT = 53;
export const EDF_HEADER_BYTES = 54;
export const EDF_HEADER_TRUNCATED = 55;
export const EDF_RECORD_COUNT = 56;
export const EDF_DURATION = 57;
export const EDF_ZERO_DURATION = 58;
export const EDF_DIGITAL_RANGE = 59;
export const EDF_PHYSICAL_RANGE = 60;
export const EDF_SAMPLES_PER_RECORD = 61;
export const EDF_DATA_TRUNCATED = 62;
export const EDF_RECORD_SIZE = 63;
export const EDF_DATE = 64;
export const EDF_TAL_ONSET = 65;
export const EDF_TAL_DURATION = 66;
export const EDF_TAL_SEPARATOR = 67;
export const EDF_RECORD_START = 68;
export const EDF_NO_ANNOTATIONS = 69;

export const BASE64_INVALID = 80;
