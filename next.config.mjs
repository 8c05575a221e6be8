/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // The engine spawns processes and reads the file system; keep these server packages out of bundling.
  serverExternalPackages: ['execa'],
};

export default nextConfig;
