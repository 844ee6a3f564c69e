// The contract's vocabulary comes with it: a program that imports TallyProtocol writes dates and months, reads field
// paths and decoding errors, and calls the coders, without importing the modules that define them.
@_exported import TallyCalendar
@_exported import TallyJSONCoding
