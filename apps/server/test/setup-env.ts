// Dates in tests follow the same zone as the server's default configuration.
process.env.TZ = process.env.TIMEZONE ?? 'America/Bogota';
