npm install esbuild@0.28.2
npx esbuild app.js --bundle --format=esm --outfile=bundle.js
